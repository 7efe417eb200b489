import Testing

@testable import PCSC
