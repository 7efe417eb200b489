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
            Int(position.lineIndex) < zone.lines.count && position.startIndex <= position.endIndex
                && Int(position.endIndex) < zone.lines[Int(position.lineIndex)].count,
            "position \(position) outside the lines \(zone.lines)"
        )
    }
    _ = zone.fields
    _ = try? AccessPassword.printed(in: zone)
    _ = machineReadableZoneToJson(mrz: zone)
}

/// Every `StringPosition` anywhere in `value`, found by reflection so new elements are covered.
private func positions(in value: Any) -> [StringPosition] {
    if let position = value as? StringPosition { return [position] }
    return Mirror(reflecting: value).children.flatMap { positions(in: $0.value) }
}
