import ASN1

/// Bytes from a hex literal written in a test, as published vectors print them (spaces
/// allowed; `ASN1.Hex` decodes). A malformed literal is a bug in the test, so it stops the run.
public func hex(_ literal: String) -> [UInt8] {
    guard let bytes = Hex.decode(literal) else { preconditionFailure("malformed hex literal \(literal)") }
    return bytes
}
