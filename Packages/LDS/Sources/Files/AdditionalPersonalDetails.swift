import ASN1
import JSON

/// DG11, additional personal details (ICAO 9303-10 §4.7.11). Every field is optional; the stored
/// properties keep the texts as the chip stored them, `<` fillers and separators included
/// (`SMITH<<JOHN<J`), empty ones as ""; the reference's properties (`nameOfHolder`,
/// `fullDateOfBirth`, `placeOfBirth`, `address`, `otherValidTravelDocumentNumbers`) give them as
/// its JSON does.
///
/// ```
/// 6B { 5C tag list, 5F0E full name, A0 { 02 count, 5F0F other name… }, 5F10 personal number,
///      5F2B full date of birth, 5F11 place of birth, 5F42 permanent address, 5F12 telephone,
///      5F13 profession, 5F14 title, 5F15 personal summary, 5F16 proof of citizenship (image),
///      5F17 other valid TD numbers, 5F18 custody information }
/// ```
public struct AdditionalPersonalDetails: LDSFileModel, Equatable {
    public var rawBytes: [UInt8]
    public var tagList: [UInt32]
    public var fullName: String?
    public var otherNames: [String]
    public var personalNumber: String?
    /// The date of birth and how the chip stored it (text or BCD); `fullDateOfBirth` is its digits.
    public var fullDateOfBirthRecord: LDSDate?
    /// The place of birth as stored, lines separated by `<`; `placeOfBirth` is its lines.
    public var placeOfBirthText: String?
    /// The address as stored, lines separated by `<`; `address` is its lines.
    public var permanentAddress: String?
    public var telephone: String?
    public var profession: String?
    public var title: String?
    public var personalSummary: String?
    public var proofOfCitizenship: DocumentImage?
    /// The numbers as stored, separated by `<`; `otherValidTravelDocumentNumbers` is the list.
    public var otherValidTravelDocumentNumbersText: String?
    public var custodyInformation: String?
    public var warnings: [String]

    /// `renderImages: false` skips the PNG rendering of a JPEG 2000 image.
    public init(_ bytes: [UInt8], renderImages: Bool = true) throws(LDSError) {
        let (node, outerWarnings) = try OuterTLV.parse(bytes, kind: .dg11)
        var reader = DetailReader(node, renderImages: renderImages)
        rawBytes = bytes
        tagList = reader.tagList
        fullName = reader.text(0x5F0E)
        otherNames = reader.names(in: 0xA0, 0x5F0F)
        personalNumber = reader.text(0x5F10)
        fullDateOfBirthRecord = reader.date(0x5F2B)
        placeOfBirthText = reader.text(0x5F11)
        permanentAddress = reader.text(0x5F42)
        telephone = reader.text(0x5F12)
        profession = reader.text(0x5F13)
        title = reader.text(0x5F14)
        personalSummary = reader.text(0x5F15)
        proofOfCitizenship = reader.image(0x5F16)
        otherValidTravelDocumentNumbersText = reader.text(0x5F17)
        custodyInformation = reader.text(0x5F18)
        warnings = outerWarnings + reader.warnings + (proofOfCitizenship?.warnings ?? [])
    }

    public var images: [DocumentImage] { proofOfCitizenship.map { [$0] } ?? [] }

    /// A DG11 holding only what is given (the writer fills `rawBytes` and `tagList`).
    public init(
        fullName: String? = nil, otherNames: [String] = [], personalNumber: String? = nil,
        fullDateOfBirthRecord: LDSDate? = nil, placeOfBirthText: String? = nil, permanentAddress: String? = nil,
        telephone: String? = nil, profession: String? = nil, title: String? = nil, personalSummary: String? = nil,
        proofOfCitizenship: DocumentImage? = nil, otherValidTravelDocumentNumbersText: String? = nil,
        custodyInformation: String? = nil
    ) {
        rawBytes = []
        tagList = []
        warnings = []
        self.fullName = fullName
        self.otherNames = otherNames
        self.personalNumber = personalNumber
        self.fullDateOfBirthRecord = fullDateOfBirthRecord
        self.placeOfBirthText = placeOfBirthText
        self.permanentAddress = permanentAddress
        self.telephone = telephone
        self.profession = profession
        self.title = title
        self.personalSummary = personalSummary
        self.proofOfCitizenship = proofOfCitizenship
        self.otherValidTravelDocumentNumbersText = otherValidTravelDocumentNumbersText
        self.custodyInformation = custodyInformation
    }

    /// The DG11 file for these fields (DER, with a 5C tag list naming what is present).
    public func encoded() -> [UInt8] {
        var writer = DetailWriter()
        writer.text(0x5F0E, fullName)
        writer.names(0xA0, 0x5F0F, otherNames)
        writer.text(0x5F10, personalNumber)
        writer.date(0x5F2B, fullDateOfBirthRecord)
        writer.text(0x5F11, placeOfBirthText)
        writer.text(0x5F42, permanentAddress)
        writer.text(0x5F12, telephone)
        writer.text(0x5F13, profession)
        writer.text(0x5F14, title)
        writer.text(0x5F15, personalSummary)
        writer.image(0x5F16, proofOfCitizenship)
        writer.text(0x5F17, otherValidTravelDocumentNumbersText)
        writer.text(0x5F18, custodyInformation)
        return writer.file(outerTag: 0x6B)
    }

    /// The reference's `nameOfHolder`: the full name split into its identifiers, without fillers.
    public var nameOfHolder: NameOfHolder? { fullName.map(NameOfHolder.init(fullName:)) }

    /// The reference's `fullDateOfBirth`: YYYYMMDD, 00 for unknown parts.
    public var fullDateOfBirth: String? { fullDateOfBirthRecord?.value }

    /// The reference's `placeOfBirth`: the place of birth as lines.
    public var placeOfBirth: [String]? { placeOfBirthText.map(DetailText.lines) }

    /// The reference's `address`: the address lines, empty lines kept.
    public var address: [String]? { permanentAddress.map(DetailText.lines) }

    /// The reference's `otherValidTravelDocumentNumbers`: the numbers, empty entries dropped.
    public var otherValidTravelDocumentNumbers: [String]? {
        otherValidTravelDocumentNumbersText.map { DetailText.lines($0).filter { !$0.isEmpty } }
    }

    /// The reference's `AdditionalPersonalDetails`: texts without fillers, the name split into
    /// its identifiers, place of birth and address as lines, the date as YYYYMMDD. Added:
    /// `fullDateOfBirthEncoding` (how the chip stored the date) and `tagList`.
    public var json: JSONValue {
        [
            "nameOfHolder": .optional(nameOfHolder),
            "otherNames": .array(otherNames.map { .string(DetailText.clean($0)) }),
            "personalNumber": DetailText.optional(personalNumber),
            "fullDateOfBirth": .optional(fullDateOfBirth),
            "fullDateOfBirthISO8601": DetailText.iso8601(fullDateOfBirthRecord),
            "fullDateOfBirthEncoding": DetailText.encoding(fullDateOfBirthRecord),
            "placeOfBirth": DetailText.linesJSON(placeOfBirth),
            "address": DetailText.linesJSON(address),
            "telephone": DetailText.optional(telephone),
            "profession": DetailText.optional(profession),
            "title": DetailText.optional(title),
            "personalSummary": DetailText.optional(personalSummary),
            "proofOfCitizenship": .optional(proofOfCitizenship),
            "otherValidTravelDocumentNumbers": DetailText.linesJSON(otherValidTravelDocumentNumbers),
            "custodyInformation": DetailText.optional(custodyInformation),
            "tagList": tagListJSON(tagList),
        ]
    }
}

/// DG11's full name of the holder, split as the reference does: the primary identifier before
/// `<<`, the secondary one after it, fillers as single spaces, an empty part as nil.
public struct NameOfHolder: Sendable, Equatable, JSONRepresentable {
    public var primaryIdentifier: String?
    public var secondaryIdentifier: String?

    public init(primaryIdentifier: String?, secondaryIdentifier: String?) {
        self.primaryIdentifier = primaryIdentifier
        self.secondaryIdentifier = secondaryIdentifier
    }

    /// From the name as DG11 stores it (`SMITH<<JOHN<J`).
    public init(fullName: String) {
        let parts = fullName.components(separatedBy: "<<")
        let primary = DetailText.clean(parts.first ?? "")
        let secondary = DetailText.clean(parts.dropFirst().joined(separator: " "))
        primaryIdentifier = primary.isEmpty ? nil : primary
        secondaryIdentifier = secondary.isEmpty ? nil : secondary
    }

    public var json: JSONValue {
        ["primaryIdentifier": .optional(primaryIdentifier), "secondaryIdentifier": .optional(secondaryIdentifier)]
    }
}
