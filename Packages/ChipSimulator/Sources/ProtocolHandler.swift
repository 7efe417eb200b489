import Transport

/// One authentication protocol on the chip's side (BAC, PACE with GM/IM/CAM, Chip Authentication,
/// Terminal Authentication, Active Authentication): the instructions it answers and the state it
/// keeps between them. The chip routes every command with one of `instructions` to it after
/// secure messaging has been removed, and acts on the outcome: the answer, a change of
/// secure-messaging session, access.
///
/// Adding a protocol is adding a type that conforms and registering it in
/// `ProtocolHandlerRegistry.standard(for:)`.
protocol ProtocolHandler: Sendable {
    /// The instruction bytes this handler answers (BAC: 84 GET CHALLENGE, 82 EXTERNAL AUTHENTICATE).
    var instructions: Set<UInt8> { get }

    /// Whether the handler reads the chaining bit of CLA itself (PACE's GENERAL AUTHENTICATE steps
    /// are chained commands that each get an answer) rather than having the chip join the parts.
    var interpretsChaining: Bool { get }

    /// Whether the handler takes this command although another registered before it has the
    /// instruction (Terminal Authentication's GET CHALLENGE and EXTERNAL AUTHENTICATE under secure
    /// messaging, BAC's before it).
    func claims(_ command: CommandAPDU, context: ProtocolContext) -> Bool

    /// Answers a plain command (CLA without secure-messaging bits).
    mutating func handle(_ command: CommandAPDU, context: ProtocolContext) -> ProtocolOutcome

    /// Forgets any run in progress: the session ended or the chip was reset.
    mutating func reset()
}

extension ProtocolHandler {
    var interpretsChaining: Bool { false }
    func claims(_ command: CommandAPDU, context: ProtocolContext) -> Bool { false }
}
