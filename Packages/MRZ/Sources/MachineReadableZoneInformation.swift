import JSON

/// The reference's `MachineReadableZoneInformation`, DG1 as a document shows it: the parsed zone
/// with its positions and check digits, and the fields every layout has, flattened.
public struct MachineReadableZoneInformation: Sendable, Hashable, JSONRepresentable {
    public let machineReadableZone: MachineReadableZone
    /// `machineReadableZone.fields`, kept beside it as the reference's model has it.
    public let fields: MrzFields

    public init(_ machineReadableZone: MachineReadableZone) {
        self.machineReadableZone = machineReadableZone
        fields = machineReadableZone.fields
    }

    public var json: JSONValue {
        ["machineReadableZone": machineReadableZone.json, "fields": fields.json]
    }
}
