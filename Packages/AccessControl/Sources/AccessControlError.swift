import CodedErrors
import ICAO
import SecureMessaging
import Transport

/// Why the chip could not be opened.
public struct AccessControlError: CodedError {
    public enum Code: String, ErrorCode {
        /// The chip refused the authentication: almost always a wrong access key (MRZ or CAN).
        case accessDenied
        /// The chip's answer failed a check (its MAC, the echo of our nonce): not the chip the
        /// key belongs to, or a tampered link.
        case chipVerificationFailed
        /// An answer that does not follow the protocol (length, status).
        case protocolViolation
        /// The document does not offer what is needed (no eMRTD application, a CAN without PACE).
        case notSupported
        /// The link failed (`transportError`).
        case transport
        /// Secure messaging could not be set up with the derived keys.
        case secureMessaging
        /// A local failure (random bytes, a cipher).
        case internalFailure
    }

    public let code: Code
    /// The protocol that failed, nil before any protocol started (e.g. SELECT of the application).
    public let accessProtocol: AccessControlProtocol?
    public let reason: String
    /// The chip's status word when one decided the failure.
    public let statusWord: StatusWord?
    public let transportError: TransportError?

    public init(
        _ code: Code, _ accessProtocol: AccessControlProtocol?, _ reason: String, statusWord: StatusWord? = nil,
        transportError: TransportError? = nil
    ) {
        self.code = code
        self.accessProtocol = accessProtocol
        self.reason = reason
        self.statusWord = statusWord
        self.transportError = transportError
    }

    static func transport(_ error: TransportError, _ accessProtocol: AccessControlProtocol?, while action: String)
        -> Self
    {
        AccessControlError(.transport, accessProtocol, "\(action): \(error)", transportError: error)
    }

    /// `BAC failed: the chip refused EXTERNAL AUTHENTICATE (6988 ...) — check ...`; without a
    /// protocol (no eMRTD application, a CAN without PACE) the reason alone, so that a caller's
    /// "access control failed: " prefix is not said twice.
    public var description: String {
        accessProtocol.map { "\($0.displayName) failed: \(reason)" } ?? reason
    }
}
