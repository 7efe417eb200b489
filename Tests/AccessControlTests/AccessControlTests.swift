import Testing

@testable import AccessControl
