import Transport

/// A PACE attempt that failed, and whether it failed before mutual authentication: only then may
/// the chip access procedure try the next offer (or BAC), since the chip has not yet judged the
/// password.
struct PACEFailure: Error, Sendable {
    let error: AccessControlError
    let beforeMutualAuthentication: Bool

    static func early(
        _ code: AccessControlError.Code, _ reason: String, statusWord: StatusWord? = nil
    ) -> PACEFailure {
        PACEFailure(
            error: AccessControlError(code, .pace, reason, statusWord: statusWord), beforeMutualAuthentication: true)
    }

    static func late(_ code: AccessControlError.Code, _ reason: String, statusWord: StatusWord? = nil) -> PACEFailure {
        PACEFailure(
            error: AccessControlError(code, .pace, reason, statusWord: statusWord), beforeMutualAuthentication: false)
    }
}
