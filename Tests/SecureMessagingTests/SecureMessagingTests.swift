import Testing

@testable import SecureMessaging
