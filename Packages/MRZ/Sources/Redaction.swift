/// MRZ text is access-key material (document number and dates open the chip), so the types that
/// hold a whole zone print without it: `print(zone)` or a log line cannot leak it. Read the
/// properties, or the JSON, when the content is wanted.
protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible {}

extension RedactedDescription {
    public var description: String { "\(Self.self)(<redacted>)" }
    public var debugDescription: String { description }
}

extension MachineReadableZone: RedactedDescription {}
extension Td1MachineReadableZone: RedactedDescription {}
extension Td2MachineReadableZone: RedactedDescription {}
extension Td3MachineReadableZone: RedactedDescription {}
extension MrzFields: RedactedDescription {}
