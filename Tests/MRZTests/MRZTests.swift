import Testing

@testable import MRZ
