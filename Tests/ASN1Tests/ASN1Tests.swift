import Testing

@testable import ASN1
