import ASN1
import JSON

/// DG11, additional personal details (ICAO 9303-10 §4.7.11). Every field is optional; texts are
/// kept as stored, `<` fillers and separators included (`SMITH<<JOHN<J`), empty ones as "".
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
    public var fullDateOfBirth: LDSDate?
    public var placeOfBirth: String?
    public var permanentAddress: String?
    public var telephone: String?
    public var profession: String?
    public var title: String?
    public var personalSummary: String?
    public var proofOfCitizenship: DocumentImage?
    public var otherValidTravelDocumentNumbers: String?
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
        fullDateOfBirth = reader.date(0x5F2B)
        placeOfBirth = reader.text(0x5F11)
        permanentAddress = reader.text(0x5F42)
        telephone = reader.text(0x5F12)
        profession = reader.text(0x5F13)
        title = reader.text(0x5F14)
        personalSummary = reader.text(0x5F15)
        proofOfCitizenship = reader.image(0x5F16)
        otherValidTravelDocumentNumbers = reader.text(0x5F17)
        custodyInformation = reader.text(0x5F18)
        warnings = outerWarnings + reader.warnings + (proofOfCitizenship?.warnings ?? [])
    }

    public var images: [DocumentImage] { proofOfCitizenship.map { [$0] } ?? [] }

    /// A DG11 holding only what is given (the writer fills `rawBytes` and `tagList`).
    public init(
        fullName: String? = nil, otherNames: [String] = [], personalNumber: String? = nil,
        fullDateOfBirth: LDSDate? = nil, placeOfBirth: String? = nil, permanentAddress: String? = nil,
        telephone: String? = nil, profession: String? = nil, title: String? = nil, personalSummary: String? = nil,
        proofOfCitizenship: DocumentImage? = nil, otherValidTravelDocumentNumbers: String? = nil,
        custodyInformation: String? = nil
    ) {
        rawBytes = []
        tagList = []
        warnings = []
        self.fullName = fullName
        self.otherNames = otherNames
        self.personalNumber = personalNumber
        self.fullDateOfBirth = fullDateOfBirth
        self.placeOfBirth = placeOfBirth
        self.permanentAddress = permanentAddress
        self.telephone = telephone
        self.profession = profession
        self.title = title
        self.personalSummary = personalSummary
        self.proofOfCitizenship = proofOfCitizenship
        self.otherValidTravelDocumentNumbers = otherValidTravelDocumentNumbers
        self.custodyInformation = custodyInformation
    }

    /// The DG11 file for these fields (DER, with a 5C tag list naming what is present).
    public func encoded() -> [UInt8] {
        var writer = DetailWriter()
        writer.text(0x5F0E, fullName)
        writer.names(0xA0, 0x5F0F, otherNames)
        writer.text(0x5F10, personalNumber)
        writer.date(0x5F2B, fullDateOfBirth)
        writer.text(0x5F11, placeOfBirth)
        writer.text(0x5F42, permanentAddress)
        writer.text(0x5F12, telephone)
        writer.text(0x5F13, profession)
        writer.text(0x5F14, title)
        writer.text(0x5F15, personalSummary)
        writer.image(0x5F16, proofOfCitizenship)
        writer.text(0x5F17, otherValidTravelDocumentNumbers)
        writer.text(0x5F18, custodyInformation)
        return writer.file(outerTag: 0x6B)
    }

    /// The reference's `AdditionalPersonalDetails`: texts without fillers, the name split into
    /// its identifiers, place of birth and address as lines, the date as YYYYMMDD. Added:
    /// `fullDateOfBirthEncoding` (how the chip stored the date) and `tagList`.
    public var json: JSONValue {
        [
            "nameOfHolder": fullName.map(DetailText.name) ?? .null,
            "otherNames": .array(otherNames.map { .string(DetailText.clean($0)) }),
            "personalNumber": DetailText.optional(personalNumber),
            "fullDateOfBirth": .optional(fullDateOfBirth),
            "fullDateOfBirthISO8601": DetailText.iso8601(fullDateOfBirth),
            "fullDateOfBirthEncoding": DetailText.encoding(fullDateOfBirth),
            "placeOfBirth": DetailText.linesJSON(placeOfBirth),
            "address": DetailText.linesJSON(permanentAddress),
            "telephone": DetailText.optional(telephone),
            "profession": DetailText.optional(profession),
            "title": DetailText.optional(title),
            "personalSummary": DetailText.optional(personalSummary),
            "proofOfCitizenship": .optional(proofOfCitizenship),
            "otherValidTravelDocumentNumbers": otherValidTravelDocumentNumbers.map {
                .array(DetailText.lines($0).filter { !$0.isEmpty }.map(JSONValue.string))
            } ?? .null,
            "custodyInformation": DetailText.optional(custodyInformation),
            "tagList": tagListJSON(tagList),
        ]
    }
}
