import Testing

@testable import CryptoPrimitives
