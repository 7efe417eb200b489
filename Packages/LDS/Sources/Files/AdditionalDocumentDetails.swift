import ASN1
import JSON

/// DG12, additional document details (ICAO 9303-10 §4.7.12). Dates as text or BCD bytes. The
/// reference's properties (`issuingAuthority`, `otherPersonDetails`, `endorsementsOrObservations`,
/// `taxOrExitRequirements`, `personalizationDeviceSerialNumber`, the dates' digits) hold what its
/// JSON shows, `<` fillers read once at parse time; each `…Text` beside one keeps the text as the
/// chip stored it, which the writer encodes, so a parsed file re-encodes to its own bytes.
///
/// ```
/// 6C { 5C tag list, 5F19 issuing authority, 5F26 date of issue, A0 { 02 count, 5F1A name… },
///      5F1B endorsements and observations, 5F1C tax or exit requirements, 5F1D image of front,
///      5F1E image of rear, 5F55 date and time of personalization, 5F56 personalization system
///      serial number }
/// ```
public struct AdditionalDocumentDetails: LDSFileModel, Equatable {
    public let rawBytes: [UInt8]
    public let tagList: [UInt32]
    public let issuingAuthority: String?
    public let issuingAuthorityText: String?
    /// The date of issue and how the chip stored it (text or BCD); `dateOfIssue` is its digits.
    public let dateOfIssueRecord: LDSDate?
    /// The reference's `otherPersonDetails`: the names of other persons, without fillers; nil when none.
    public let otherPersonDetails: [String]?
    /// The names of other persons as stored.
    public let otherPersonDetailsText: [String]
    public let endorsementsOrObservations: String?
    public let endorsementsOrObservationsText: String?
    public let taxOrExitRequirements: String?
    public let taxOrExitRequirementsText: String?
    public let imageOfFront: DocumentImage?
    public let imageOfRear: DocumentImage?
    /// The date and time of personalization and how the chip stored them; `personalizationTime`
    /// is its digits.
    public let dateAndTimeOfPersonalization: LDSDate?
    public let personalizationDeviceSerialNumber: String?
    public let personalizationDeviceSerialNumberText: String?
    public let warnings: [String]

    /// `renderImages: false` skips the PNG rendering of a JPEG 2000 image.
    public init(_ bytes: [UInt8], renderImages: Bool = true) throws(LDSError) {
        let (node, outerWarnings) = try OuterTLV.parse(bytes, kind: .dg12)
        var reader = DetailReader(node, renderImages: renderImages)
        let otherPersonDetailsText = reader.names(in: 0xA0, 0x5F1A)
        let imageOfFront = reader.image(0x5F1D)
        let imageOfRear = reader.image(0x5F1E)
        self.init(
            rawBytes: bytes, tagList: reader.tagList,
            warnings: outerWarnings + reader.warnings + (imageOfFront?.warnings(name: "image of the front") ?? [])
                + (imageOfRear?.warnings(name: "image of the rear") ?? []),
            issuingAuthorityText: reader.text(0x5F19), dateOfIssueRecord: reader.date(0x5F26),
            otherPersonDetailsText: otherPersonDetailsText, endorsementsOrObservationsText: reader.text(0x5F1B),
            taxOrExitRequirementsText: reader.text(0x5F1C), imageOfFront: imageOfFront, imageOfRear: imageOfRear,
            dateAndTimeOfPersonalization: reader.date(0x5F55),
            personalizationDeviceSerialNumberText: reader.text(0x5F56))
    }

    public var images: [DocumentImage] { [imageOfFront, imageOfRear].compactMap { $0 } }

    /// A DG12 holding only what is given, texts as a chip stores them (the writer fills
    /// `rawBytes` and `tagList`).
    public init(
        issuingAuthorityText: String? = nil, dateOfIssueRecord: LDSDate? = nil, otherPersonDetailsText: [String] = [],
        endorsementsOrObservationsText: String? = nil, taxOrExitRequirementsText: String? = nil,
        imageOfFront: DocumentImage? = nil, imageOfRear: DocumentImage? = nil,
        dateAndTimeOfPersonalization: LDSDate? = nil, personalizationDeviceSerialNumberText: String? = nil
    ) {
        self.init(
            rawBytes: [], tagList: [], warnings: [], issuingAuthorityText: issuingAuthorityText,
            dateOfIssueRecord: dateOfIssueRecord, otherPersonDetailsText: otherPersonDetailsText,
            endorsementsOrObservationsText: endorsementsOrObservationsText,
            taxOrExitRequirementsText: taxOrExitRequirementsText, imageOfFront: imageOfFront, imageOfRear: imageOfRear,
            dateAndTimeOfPersonalization: dateAndTimeOfPersonalization,
            personalizationDeviceSerialNumberText: personalizationDeviceSerialNumberText)
    }

    /// Both initializers end here: the reference's values are read from the stored texts once.
    private init(
        rawBytes: [UInt8], tagList: [UInt32], warnings: [String], issuingAuthorityText: String?,
        dateOfIssueRecord: LDSDate?, otherPersonDetailsText: [String], endorsementsOrObservationsText: String?,
        taxOrExitRequirementsText: String?, imageOfFront: DocumentImage?, imageOfRear: DocumentImage?,
        dateAndTimeOfPersonalization: LDSDate?, personalizationDeviceSerialNumberText: String?
    ) {
        self.rawBytes = rawBytes
        self.tagList = tagList
        self.warnings = warnings
        self.issuingAuthorityText = issuingAuthorityText
        issuingAuthority = issuingAuthorityText.map(DetailText.clean)
        self.dateOfIssueRecord = dateOfIssueRecord
        self.otherPersonDetailsText = otherPersonDetailsText
        otherPersonDetails = otherPersonDetailsText.isEmpty ? nil : otherPersonDetailsText.map(DetailText.clean)
        self.endorsementsOrObservationsText = endorsementsOrObservationsText
        endorsementsOrObservations = endorsementsOrObservationsText.map(DetailText.clean)
        self.taxOrExitRequirementsText = taxOrExitRequirementsText
        taxOrExitRequirements = taxOrExitRequirementsText.map(DetailText.clean)
        self.imageOfFront = imageOfFront
        self.imageOfRear = imageOfRear
        self.dateAndTimeOfPersonalization = dateAndTimeOfPersonalization
        self.personalizationDeviceSerialNumberText = personalizationDeviceSerialNumberText
        personalizationDeviceSerialNumber = personalizationDeviceSerialNumberText.map(DetailText.clean)
    }

    /// The DG12 file for these fields (DER, with a 5C tag list naming what is present).
    public func encoded() -> [UInt8] {
        var writer = DetailWriter()
        writer.text(0x5F19, issuingAuthorityText)
        writer.date(0x5F26, dateOfIssueRecord)
        writer.names(0xA0, 0x5F1A, otherPersonDetailsText)
        writer.text(0x5F1B, endorsementsOrObservationsText)
        writer.text(0x5F1C, taxOrExitRequirementsText)
        writer.image(0x5F1D, imageOfFront)
        writer.image(0x5F1E, imageOfRear)
        writer.date(0x5F55, dateAndTimeOfPersonalization)
        writer.text(0x5F56, personalizationDeviceSerialNumberText)
        return writer.file(outerTag: 0x6C)
    }

    /// The reference's `dateOfIssue`: YYYYMMDD.
    public var dateOfIssue: String? { dateOfIssueRecord?.value }

    /// The reference's `personalizationTime`: YYYYMMDDhhmmss.
    public var personalizationTime: String? { dateAndTimeOfPersonalization?.value }

    /// The reference's `AdditionalDocumentDetails`, its properties as they are. Added: each
    /// date in ISO 8601 and how the chip stored it, and `tagList`.
    public var json: JSONValue {
        [
            "issuingAuthority": .optional(issuingAuthority),
            "dateOfIssue": .optional(dateOfIssue),
            "dateOfIssueISO8601": DetailText.iso8601(dateOfIssueRecord),
            "dateOfIssueEncoding": DetailText.encoding(dateOfIssueRecord),
            "otherPersonDetails": DetailText.linesJSON(otherPersonDetails),
            "endorsementsOrObservations": .optional(endorsementsOrObservations),
            "taxOrExitRequirements": .optional(taxOrExitRequirements),
            "imageOfFront": .optional(imageOfFront),
            "imageOfRear": .optional(imageOfRear),
            "personalizationTime": .optional(personalizationTime),
            "personalizationTimeISO8601": DetailText.iso8601(dateAndTimeOfPersonalization),
            "personalizationTimeEncoding": DetailText.encoding(dateAndTimeOfPersonalization),
            "personalizationDeviceSerialNumber": .optional(personalizationDeviceSerialNumber),
            "tagList": tagListJSON(tagList),
        ]
    }
}
