import Testing

@testable import Transport
