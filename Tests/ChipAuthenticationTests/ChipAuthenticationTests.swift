import Testing

@testable import ChipAuthentication
