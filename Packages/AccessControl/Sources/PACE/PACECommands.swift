import ASN1
import ICAO
import Transport

/// PACE's APDUs (ICAO 9303-11 §4.4.4): MSE:Set AT, then a chain of GENERAL AUTHENTICATE commands
/// whose dynamic authentication data carry each step's data object.
enum PACECommands {
    /// MSE:Set AT, `00 22 C1 A4`:
    ///
    /// ```
    /// 80 L  the protocol's OID, value only (tag 06 omitted)
    /// 83 01 the password: 01 MRZ information, 02 CAN
    /// 84 L  the domain parameter ID, whenever the PACEInfo names one
    /// ```
    static func setAuthenticationTemplate(_ paceProtocol: PACEProtocol, password: PACEPassword, parameterId: Int?)
        -> CommandAPDU
    {
        let data =
            DER.tlv(ASN1Tag(0x80), paceProtocol.identifier.content) + DER.tlv(ASN1Tag(0x83), [password.rawValue])
            + (parameterId.map { DER.tlv(ASN1Tag(0x84), DER.minimalUnsignedBytes($0)) } ?? [])
        return CommandAPDU(cla: 0x00, ins: 0x22, p1: 0xC1, p2: 0xA4, data: data)
    }

    /// GENERAL AUTHENTICATE `x0 86 00 00` with `7C L objects`: CLA 10 (command chaining) on every
    /// step but the last, which ends the chain with CLA 00. The answer is about as long as the
    /// command (a key of the same size), so a command whose answer may exceed 256 bytes asks with
    /// an extended Le.
    static func generalAuthenticate(_ objects: [UInt8], isLast: Bool) -> CommandAPDU {
        let data = DER.tlv(ASN1Tag(0x7C), objects)
        let extended = data.count > CommandAPDU.maximumShortExpectedLength - extendedLengthMargin
        return CommandAPDU(
            cla: isLast ? 0x00 : 0x10, ins: 0x86, p1: 0x00, p2: 0x00, data: data,
            expectedLength: extended
                ? CommandAPDU.maximumExtendedExpectedLength : CommandAPDU.maximumShortExpectedLength)
    }

    /// How much longer than the command an answer may be: the chip's key is as long as ours, its
    /// headers a few bytes longer at most.
    static let extendedLengthMargin = 8

    /// The public key data object the authentication tokens are computed over (9303-11 §4.4.3.4,
    /// §9.4), the domain parameters left out:
    ///
    /// ```
    /// 7F49 L { 06 L protocol OID, 86 L point | 84 L DH value }
    /// ```
    ///
    /// The DH value y is an unsigned integer, written with the fewest octets (TR-03110-3 D.2.1.1:
    /// no leading 00), whatever length it travelled in; a point keeps its fixed length. OpenPACE
    /// (and chips built on it) compute the token so, which matters once in 256 keys.
    static func publicKeyDataObject(_ paceProtocol: PACEProtocol, keyTag: UInt64, key: [UInt8]) -> [UInt8] {
        let value = keyTag == 0x84 ? Array(key.drop { $0 == 0 }) : key
        return DER.tlv(
            ASN1Tag(0x7F49), DER.objectIdentifier(paceProtocol.identifier) + DER.tlv(ASN1Tag(keyTag), value))
    }

    /// The data objects of a GENERAL AUTHENTICATE answer, `7C L { … }`; nil when the data is not one
    /// dynamic authentication data object. An absent answer counts as an empty one (the Integrated
    /// Mapping's step 2 has nothing to say).
    static func dynamicAuthenticationData(_ data: [UInt8]) -> [ASN1Node]? {
        if data.isEmpty { return [] }
        guard let node = try? ASN1Node.parse(data, maxDepth: 2), node.tag == ASN1Tag(0x7C) else { return nil }
        return node.children
    }
}
