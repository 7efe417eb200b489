import ASN1
import Arithmetic
import CryptoPrimitives
import Files
import Foundation
import ICAO

/// The chip's private keys beside its files in a specimen directory (`chip-keys.der`), so that a
/// chip served from that directory later (`emrtd relay --simulator DIR`, `emrtd read --simulator
/// DIR`) proves itself with the keys its DG14, DG15 and EF.CardSecurity were written for. Without
/// the file, a directory's chip gets fresh keys: a clone, which Chip and Active Authentication
/// catch. A simulator's keys only; a real chip never lets them out.
///
/// ```
/// ChipKeys ::= SEQUENCE {
///     chipAuthentication SEQUENCE OF SEQUENCE {
///         parameterId INTEGER, cipherArc INTEGER, privateKey OCTET STRING, keyId INTEGER OPTIONAL },
///     activeAuthentication [0] EXPLICIT CHOICE {
///         rsa SEQUENCE { n INTEGER, e INTEGER, d INTEGER, hashId INTEGER },  -- hashId 0: trailer BC
///         ecdsa [1] IMPLICIT SEQUENCE { parameterId INTEGER, privateKey OCTET STRING,
///             hashId INTEGER, der INTEGER } } OPTIONAL }
/// ```
/// Hash IDs are ISO/IEC 10118's (33 SHA-1, 38 SHA-224, 34 SHA-256, 36 SHA-384, 35 SHA-512).
extension Credentials {
    public static let keysFileName = "chip-keys.der"

    /// The keys file of these credentials. Keys on explicit (not standardized) parameters are
    /// refused: the simulator makes keys on standardized ones only.
    public func keysFile() throws(ChipSimulatorError) -> [UInt8] {
        let chipAuthentication = try chipAuthenticationKeys.map { (key) throws(ChipSimulatorError) -> [UInt8] in
            DER.sequence(
                [
                    DER.integer(try Self.parameterId(key.keyPair)), DER.integer(Int(key.cipher.protocolArc)),
                    DER.octetString(key.keyPair.privateKey.minimalBytes),
                ] + (key.keyIdentifier.map { [DER.integer($0)] } ?? []))
        }
        var fields = [DER.sequence(chipAuthentication)]
        if let key = activeAuthenticationKey {
            let choice: [UInt8]
            switch key.algorithm {
            case .rsa(let pair, let trailer):
                let hashId = trailer == .implicit ? 0 : Int(ISO9796Trailer.identifier(trailer.hash))
                choice = DER.sequence([
                    DER.unsignedInteger(pair.modulus.minimalBytes),
                    DER.unsignedInteger(pair.publicExponent.minimalBytes),
                    DER.unsignedInteger(pair.privateExponent.minimalBytes), DER.integer(hashId),
                ])
            case .ecdsa(let pair, let hash, let encoding):
                choice = DER.constructed(
                    ASN1Tag.contextSpecific(1, constructed: true),
                    [
                        DER.integer(try Self.parameterId(pair)), DER.octetString(pair.privateKey.minimalBytes),
                        DER.integer(Int(ISO9796Trailer.identifier(hash))), DER.integer(encoding == .der ? 1 : 0),
                    ])
            }
            fields.append(DER.tlv(ASN1Tag.contextSpecific(0, constructed: true), choice))
        }
        return DER.sequence(fields)
    }

    /// Takes the keys of `bytes` (a `keysFile()`), replacing this chip's Chip and Active
    /// Authentication keys.
    public mutating func restoreKeys(from bytes: [UInt8]) throws(ChipSimulatorError) {
        do throws(ASN1Error) {
            var fields = try ASN1Node.parse(bytes).sequenceFields("ChipKeys")
            var keys: [ChipAuthenticationKey] = []
            for entry in try fields.next("chipAuthentication").expect(.sequence, "chipAuthentication").children {
                var key = try entry.sequenceFields("ChipAuthenticationKey")
                let parameters = try Self.parameters(try key.next("parameterId").intValue())
                guard let cipher = BlockCipher(protocolArc: UInt64(try key.next("cipherArc").intValue())) else {
                    throw ASN1Error(.invalidValue, "an unknown cipher")
                }
                let privateKey = Array(try key.next("privateKey").octetString())
                let keyId = try key.next().map { (node) throws(ASN1Error) in try node.intValue() }
                keys.append(
                    ChipAuthenticationKey(
                        try Self.keyPair(privateKey, on: parameters), keyIdentifier: keyId, cipher: cipher))
            }
            chipAuthenticationKeys = keys
            activeAuthenticationKey = nil
            if let wrapper = fields.next(), let choice = wrapper.children.first {
                activeAuthenticationKey = try Self.activeAuthenticationKey(choice)
            }
        } catch {
            throw ChipSimulatorError("\(Self.keysFileName) is not a keys file: \(error.reason)")
        }
    }

    /// The keys file in `directory`, when there is one, replacing these credentials' keys.
    public mutating func restoreKeys(fromDirectory directory: URL) throws(ChipSimulatorError) {
        let url = directory.appendingPathComponent(Self.keysFileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let bytes: [UInt8]
        do throws(FilesError) {
            bytes = try CappedFile.read(url.path, as: CappedFile.Kind("a keys file", limit: 64 * 1024))
        } catch {
            throw ChipSimulatorError(error.reason)
        }
        try restoreKeys(from: bytes)
    }

    private static func activeAuthenticationKey(_ choice: ASN1Node) throws(ASN1Error) -> ActiveAuthenticationKey {
        var fields = choice.fields
        if choice.tag == .sequence {
            let n = Array(try fields.next("n").unsignedIntegerBytes())
            let e = Array(try fields.next("e").unsignedIntegerBytes())
            let d = Array(try fields.next("d").unsignedIntegerBytes())
            let hashId = try fields.next("hashId").intValue()
            return try converting { () throws(ChipSimulatorError) in
                let pair = try RSAKeyPair(modulus: n, publicExponent: e, privateExponent: d)
                return try .rsa(pair, trailer: hashId == 0 ? .implicit : .explicit(try hash(hashId)))
            }
        }
        let parameters = try parameters(try fields.next("parameterId").intValue())
        let privateKey = Array(try fields.next("privateKey").octetString())
        let hashId = try fields.next("hashId").intValue()
        let der = try fields.next("der").intValue() == 1
        let pair = try keyPair(privateKey, on: parameters)
        return try converting { () throws(ChipSimulatorError) in
            try .ecdsa(pair, hash: try hash(hashId), encoding: der ? .der : .plain)
        }
    }

    /// A simulator error met while reading the file, as the file's error.
    private static func converting<T>(_ body: () throws(ChipSimulatorError) -> T) throws(ASN1Error) -> T {
        do throws(ChipSimulatorError) {
            return try body()
        } catch {
            throw ASN1Error(.invalidValue, error.reason)
        }
    }

    private static func parameterId(_ pair: KeyAgreementKeyPair) throws(ChipSimulatorError) -> Int {
        let id: Int? =
            switch pair.domainParameters {
            case .ellipticCurve(let curve): curve.standardParameterID
            case .dhGroup(let group): group.standardParameterID
            }
        guard let id else { throw ChipSimulatorError("a key on explicit parameters cannot be saved") }
        return id
    }

    private static func parameters(_ id: Int) throws(ASN1Error) -> StandardizedDomainParameters {
        guard let parameters = StandardizedDomainParameters(id: id) else {
            throw ASN1Error(.invalidValue, "no standardized domain parameters \(id)")
        }
        return parameters
    }

    private static func keyPair(_ privateKey: [UInt8], on parameters: StandardizedDomainParameters)
        throws(ASN1Error) -> KeyAgreementKeyPair
    {
        try converting { () throws(ChipSimulatorError) in
            try KeyAgreementKeyPair(privateKey: privateKey, on: parameters)
        }
    }

    private static func hash(_ identifier: Int) throws(ChipSimulatorError) -> HashAlgorithm {
        guard let hash = HashAlgorithm.allCases.first(where: { Int(ISO9796Trailer.identifier($0)) == identifier })
        else {
            throw ChipSimulatorError("hash ID \(identifier) is not one 9303 uses")
        }
        return hash
    }
}
