import Testing

@testable import ChipSimulator
