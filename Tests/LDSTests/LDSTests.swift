import Testing

@testable import LDS
