/// What people read instead of an enum's raw name, in the summary and the report: a verdict's
/// status in words (`authorityCertificatesNotProvided` → "authority certificates not provided"),
/// a protocol by its name in 9303 with its short form ("Chip Authentication Mapping (PACE-CAM)").
/// The JSON keeps the raw names: they are the contract scripts branch on.
enum PeopleWords {
    /// The protocols, named as ICAO 9303-11 names them.
    static let protocols: [String: String] = [
        "paceChipAuthenticationMapping": "Chip Authentication Mapping (PACE-CAM)",
        "chipAuthentication": "Chip Authentication",
        "activeAuthentication": "Active Authentication",
        "passiveAuthentication": "Passive Authentication",
    ]

    /// A raw name in words: a protocol by its name, anything else split at its capitals, in
    /// lower case ("notSupported" → "not supported").
    static func words(_ raw: String) -> String {
        if let name = protocols[raw] { return name }
        var text = ""
        for character in raw {
            if character.isUppercase, !text.isEmpty { text.append(" ") }
            text.append(contentsOf: character.lowercased())
        }
        return text
    }
}
