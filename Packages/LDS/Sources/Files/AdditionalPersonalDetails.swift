import ASN1
import JSON

/// DG11, additional personal details (ICAO 9303-10 §4.7.11). Every field is optional. The
/// reference's properties (`nameOfHolder`, `otherNames`, `personalNumber`, `placeOfBirth`,
/// `address`, `telephone`…) hold what its JSON shows, `<` fillers read once at parse time; each
/// `…Text` beside one keeps the text as the chip stored it (`SMITH<<JOHN<J`, empty ones as ""),
/// which the writer encodes, so a parsed file re-encodes to its own bytes.
///
/// ```
/// 6B { 5C tag list, 5F0E full name, A0 { 02 count, 5F0F other name… }, 5F10 personal number,
///      5F2B full date of birth, 5F11 place of birth, 5F42 permanent address, 5F12 telephone,
///      5F13 profession, 5F14 title, 5F15 personal summary, 5F16 proof of citizenship (image),
///      5F17 other valid TD numbers, 5F18 custody information }
/// ```
public struct AdditionalPersonalDetails: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    public let tagList: [UInt32]
    /// The reference's `nameOfHolder`: the full name split into its identifiers, without fillers.
    public let nameOfHolder: NameOfHolder?
    /// The full name as stored (`SMITH<<JOHN<J`).
    public let fullNameText: String?
    /// The reference's `otherNames`, each without fillers.
    public let otherNames: [String]
    /// The other names as stored.
    public let otherNamesText: [String]
    public let personalNumber: String?
    public let personalNumberText: String?
    /// The date of birth and how the chip stored it (text or BCD); `fullDateOfBirth` is its digits.
    public let fullDateOfBirthRecord: LDSDate?
    /// The reference's `placeOfBirth`: the place of birth as lines.
    public let placeOfBirth: [String]?
    /// The place of birth as stored, lines separated by `<`.
    public let placeOfBirthText: String?
    /// The reference's `address`: the address lines, empty lines kept.
    public let address: [String]?
    /// The permanent address as stored, lines separated by `<`.
    public let addressText: String?
    public let telephone: String?
    public let telephoneText: String?
    public let profession: String?
    public let professionText: String?
    public let title: String?
    public let titleText: String?
    public let personalSummary: String?
    public let personalSummaryText: String?
    public let proofOfCitizenship: DocumentImage?
    /// The reference's `otherValidTravelDocumentNumbers`: the numbers, empty entries dropped.
    public let otherValidTravelDocumentNumbers: [String]?
    /// The numbers as stored, separated by `<`.
    public let otherValidTravelDocumentNumbersText: String?
    public let custodyInformation: String?
    public let custodyInformationText: String?
    public let warnings: [String]

    /// `renderImages: false` skips the PNG rendering of a JPEG 2000 image.
    public init(_ bytes: [UInt8], renderImages: Bool = true) throws(LDSError) {
        let (node, outerWarnings) = try OuterTLV.parse(bytes, kind: .dg11)
        var reader = DetailReader(node, renderImages: renderImages)
        let otherNamesText = reader.names(in: 0xA0, 0x5F0F)
        let proofOfCitizenship = reader.image(0x5F16)
        self.init(
            rawBytes: bytes, tagList: reader.tagList,
            warnings: outerWarnings + reader.warnings
                + (proofOfCitizenship?.warnings(name: "proof of citizenship image") ?? []),
            fullNameText: reader.text(0x5F0E), otherNamesText: otherNamesText,
            personalNumberText: reader.text(0x5F10), fullDateOfBirthRecord: reader.date(0x5F2B),
            placeOfBirthText: reader.text(0x5F11), addressText: reader.text(0x5F42),
            telephoneText: reader.text(0x5F12), professionText: reader.text(0x5F13), titleText: reader.text(0x5F14),
            personalSummaryText: reader.text(0x5F15), proofOfCitizenship: proofOfCitizenship,
            otherValidTravelDocumentNumbersText: reader.text(0x5F17), custodyInformationText: reader.text(0x5F18))
    }

    public var images: [DocumentImage] { proofOfCitizenship.map { [$0] } ?? [] }

    /// A DG11 holding only what is given, texts as a chip stores them (the writer fills
    /// `rawBytes` and `tagList`).
    public init(
        fullNameText: String? = nil, otherNamesText: [String] = [], personalNumberText: String? = nil,
        fullDateOfBirthRecord: LDSDate? = nil, placeOfBirthText: String? = nil, addressText: String? = nil,
        telephoneText: String? = nil, professionText: String? = nil, titleText: String? = nil,
        personalSummaryText: String? = nil, proofOfCitizenship: DocumentImage? = nil,
        otherValidTravelDocumentNumbersText: String? = nil, custodyInformationText: String? = nil
    ) {
        self.init(
            rawBytes: [], tagList: [], warnings: [], fullNameText: fullNameText, otherNamesText: otherNamesText,
            personalNumberText: personalNumberText, fullDateOfBirthRecord: fullDateOfBirthRecord,
            placeOfBirthText: placeOfBirthText, addressText: addressText, telephoneText: telephoneText,
            professionText: professionText, titleText: titleText, personalSummaryText: personalSummaryText,
            proofOfCitizenship: proofOfCitizenship,
            otherValidTravelDocumentNumbersText: otherValidTravelDocumentNumbersText,
            custodyInformationText: custodyInformationText)
    }

    /// Both initializers end here: the reference's values are read from the stored texts once.
    private init(
        rawBytes: [UInt8], tagList: [UInt32], warnings: [String], fullNameText: String?, otherNamesText: [String],
        personalNumberText: String?, fullDateOfBirthRecord: LDSDate?, placeOfBirthText: String?,
        addressText: String?, telephoneText: String?, professionText: String?, titleText: String?,
        personalSummaryText: String?, proofOfCitizenship: DocumentImage?,
        otherValidTravelDocumentNumbersText: String?, custodyInformationText: String?
    ) {
        self.rawBytes = rawBytes
        self.tagList = tagList
        self.warnings = warnings
        self.fullNameText = fullNameText
        nameOfHolder = fullNameText.map(NameOfHolder.init(fullName:))
        self.otherNamesText = otherNamesText
        otherNames = otherNamesText.map(DetailText.clean)
        self.personalNumberText = personalNumberText
        personalNumber = personalNumberText.map(DetailText.clean)
        self.fullDateOfBirthRecord = fullDateOfBirthRecord
        self.placeOfBirthText = placeOfBirthText
        placeOfBirth = placeOfBirthText.map(DetailText.lines)
        self.addressText = addressText
        address = addressText.map(DetailText.lines)
        self.telephoneText = telephoneText
        telephone = telephoneText.map(DetailText.clean)
        self.professionText = professionText
        profession = professionText.map(DetailText.clean)
        self.titleText = titleText
        title = titleText.map(DetailText.clean)
        self.personalSummaryText = personalSummaryText
        personalSummary = personalSummaryText.map(DetailText.clean)
        self.proofOfCitizenship = proofOfCitizenship
        self.otherValidTravelDocumentNumbersText = otherValidTravelDocumentNumbersText
        otherValidTravelDocumentNumbers = otherValidTravelDocumentNumbersText.map {
            DetailText.lines($0).filter { !$0.isEmpty }
        }
        self.custodyInformationText = custodyInformationText
        custodyInformation = custodyInformationText.map(DetailText.clean)
    }

    /// The DG11 file for these fields (DER, with a 5C tag list naming what is present).
    public func encoded() -> [UInt8] {
        var writer = DetailWriter()
        writer.text(0x5F0E, fullNameText)
        writer.names(0xA0, 0x5F0F, otherNamesText)
        writer.text(0x5F10, personalNumberText)
        writer.date(0x5F2B, fullDateOfBirthRecord)
        writer.text(0x5F11, placeOfBirthText)
        writer.text(0x5F42, addressText)
        writer.text(0x5F12, telephoneText)
        writer.text(0x5F13, professionText)
        writer.text(0x5F14, titleText)
        writer.text(0x5F15, personalSummaryText)
        writer.image(0x5F16, proofOfCitizenship)
        writer.text(0x5F17, otherValidTravelDocumentNumbersText)
        writer.text(0x5F18, custodyInformationText)
        return writer.file(outerTag: 0x6B)
    }

    /// The reference's `fullDateOfBirth`: YYYYMMDD, 00 for unknown parts.
    public var fullDateOfBirth: String? { fullDateOfBirthRecord?.value }

    /// The reference's `AdditionalPersonalDetails`, its properties as they are. Added:
    /// `fullDateOfBirthISO8601`, `fullDateOfBirthEncoding` (how the chip stored the date) and `tagList`.
    public var json: JSONValue {
        [
            "nameOfHolder": .optional(nameOfHolder),
            "otherNames": .array(otherNames.map(JSONValue.string)),
            "personalNumber": .optional(personalNumber),
            "fullDateOfBirth": .optional(fullDateOfBirth),
            "fullDateOfBirthISO8601": DetailText.iso8601(fullDateOfBirthRecord),
            "fullDateOfBirthEncoding": DetailText.encoding(fullDateOfBirthRecord),
            "placeOfBirth": DetailText.linesJSON(placeOfBirth),
            "address": DetailText.linesJSON(address),
            "telephone": .optional(telephone),
            "profession": .optional(profession),
            "title": .optional(title),
            "personalSummary": .optional(personalSummary),
            "proofOfCitizenship": .optional(proofOfCitizenship),
            "otherValidTravelDocumentNumbers": DetailText.linesJSON(otherValidTravelDocumentNumbers),
            "custodyInformation": .optional(custodyInformation),
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
