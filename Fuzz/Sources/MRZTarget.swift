import MRZ

/// MRZ lines as typed or scanned (any bytes, read as UTF-8, split at line breaks; the break that
/// ends a text file's last line ends the last line, it does not start an empty one), then what
/// the reader does with a zone: fields, access key, JSON. Every position the model reports
/// must lie inside the zone's lines.
let mrzTarget = FuzzTarget(name: "mrz") { input in
    let text = String(decoding: input, as: UTF8.self)
    var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    if lines.count > 1, lines.last == "" { lines.removeLast() }
    guard let zone = try? MachineReadableZone.parse(lines: lines) else { return }
    for position in positions(in: zone) {
        fuzzCheck(
            zone.lines.indices.contains(position.lineIndex) && 0 <= position.startIndex
                && position.startIndex <= position.endIndex
                && position.endIndex < zone.lines[position.lineIndex].count,
            "position \(position) outside the lines \(zone.lines)"
        )
    }
    _ = zone.fields
    _ = try? AccessPassword.printed(in: zone)
    _ = machineReadableZoneToJson(mrz: zone)
}

/// Every `MrzPosition` anywhere in `value`, found by reflection so new elements are covered.
private func positions(in value: Any) -> [MrzPosition] {
    if let position = value as? MrzPosition { return [position] }
    return Mirror(reflecting: value).children.flatMap { positions(in: $0.value) }
}
