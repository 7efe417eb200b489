import CodedErrors
import Transport

/// Every failure of this package: a code to branch on, a reason for people, and the chip's status
/// word or the link's error when one caused it.
public struct ChipAuthenticationError: CodedError {
    public enum Code: String, ErrorCode {
        /// The key or parameters the chip names cannot be used (not on the curve, unknown
        /// parameters, a key of another algorithm): the protocol was not started.
        case unusableKey
        /// The chip refused a command of the protocol with a status word.
        case refused
        /// The chip's answer is malformed (not the data objects the protocol defines).
        case protocolViolation
        /// Secure messaging broke: the chip did not answer under the keys it should share.
        case secureMessaging
        /// The link failed (timeout, card removed).
        case transport
        /// The chip's proof did not verify: a signature or a PACE-CAM binding that is wrong.
        case verificationFailed
        /// Something this reader needs failed (random source, key derivation).
        case internalFailure
    }

    public let code: Code
    public let reason: String
    public let statusWord: StatusWord?
    public let transportError: TransportError?

    public init(_ code: Code, _ reason: String, statusWord: StatusWord? = nil, transportError: TransportError? = nil) {
        self.code = code
        self.reason = reason
        self.statusWord = statusWord
        self.transportError = transportError
    }
}
