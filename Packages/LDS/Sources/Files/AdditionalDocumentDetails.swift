import ASN1
import JSON

/// DG12, additional document details (ICAO 9303-10 §4.7.12). Dates as text or BCD bytes. The
/// stored properties keep the texts as the chip stored them; the reference's properties
/// (`dateOfIssue`, `otherPersonDetails`, `endorsementsOrObservations`, `personalizationTime`,
/// `personalizationDeviceSerialNumber`) give them as its JSON does.
///
/// ```
/// 6C { 5C tag list, 5F19 issuing authority, 5F26 date of issue, A0 { 02 count, 5F1A name… },
///      5F1B endorsements and observations, 5F1C tax or exit requirements, 5F1D image of front,
///      5F1E image of rear, 5F55 date and time of personalization, 5F56 personalization system
///      serial number }
/// ```
public struct AdditionalDocumentDetails: LDSFileModel, Equatable {
    public var rawBytes: [UInt8]
    public var tagList: [UInt32]
    public var issuingAuthority: String?
    /// The date of issue and how the chip stored it (text or BCD); `dateOfIssue` is its digits.
    public var dateOfIssueRecord: LDSDate?
    public var namesOfOtherPersons: [String]
    public var endorsementsAndObservations: String?
    public var taxOrExitRequirements: String?
    public var imageOfFront: DocumentImage?
    public var imageOfRear: DocumentImage?
    public var dateAndTimeOfPersonalization: LDSDate?
    public var personalizationSystemSerialNumber: String?
    public var warnings: [String]

    /// `renderImages: false` skips the PNG rendering of a JPEG 2000 image.
    public init(_ bytes: [UInt8], renderImages: Bool = true) throws(LDSError) {
        let (node, outerWarnings) = try OuterTLV.parse(bytes, kind: .dg12)
        var reader = DetailReader(node, renderImages: renderImages)
        rawBytes = bytes
        tagList = reader.tagList
        issuingAuthority = reader.text(0x5F19)
        dateOfIssueRecord = reader.date(0x5F26)
        namesOfOtherPersons = reader.names(in: 0xA0, 0x5F1A)
        endorsementsAndObservations = reader.text(0x5F1B)
        taxOrExitRequirements = reader.text(0x5F1C)
        imageOfFront = reader.image(0x5F1D)
        imageOfRear = reader.image(0x5F1E)
        dateAndTimeOfPersonalization = reader.date(0x5F55)
        personalizationSystemSerialNumber = reader.text(0x5F56)
        warnings =
            outerWarnings + reader.warnings + (imageOfFront?.warnings ?? []) + (imageOfRear?.warnings ?? [])
    }

    public var images: [DocumentImage] { [imageOfFront, imageOfRear].compactMap { $0 } }

    /// A DG12 holding only what is given (the writer fills `rawBytes` and `tagList`).
    public init(
        issuingAuthority: String? = nil, dateOfIssueRecord: LDSDate? = nil, namesOfOtherPersons: [String] = [],
        endorsementsAndObservations: String? = nil, taxOrExitRequirements: String? = nil,
        imageOfFront: DocumentImage? = nil, imageOfRear: DocumentImage? = nil,
        dateAndTimeOfPersonalization: LDSDate? = nil, personalizationSystemSerialNumber: String? = nil
    ) {
        rawBytes = []
        tagList = []
        warnings = []
        self.issuingAuthority = issuingAuthority
        self.dateOfIssueRecord = dateOfIssueRecord
        self.namesOfOtherPersons = namesOfOtherPersons
        self.endorsementsAndObservations = endorsementsAndObservations
        self.taxOrExitRequirements = taxOrExitRequirements
        self.imageOfFront = imageOfFront
        self.imageOfRear = imageOfRear
        self.dateAndTimeOfPersonalization = dateAndTimeOfPersonalization
        self.personalizationSystemSerialNumber = personalizationSystemSerialNumber
    }

    /// The DG12 file for these fields (DER, with a 5C tag list naming what is present).
    public func encoded() -> [UInt8] {
        var writer = DetailWriter()
        writer.text(0x5F19, issuingAuthority)
        writer.date(0x5F26, dateOfIssueRecord)
        writer.names(0xA0, 0x5F1A, namesOfOtherPersons)
        writer.text(0x5F1B, endorsementsAndObservations)
        writer.text(0x5F1C, taxOrExitRequirements)
        writer.image(0x5F1D, imageOfFront)
        writer.image(0x5F1E, imageOfRear)
        writer.date(0x5F55, dateAndTimeOfPersonalization)
        writer.text(0x5F56, personalizationSystemSerialNumber)
        return writer.file(outerTag: 0x6C)
    }

    /// The reference's `dateOfIssue`: YYYYMMDD.
    public var dateOfIssue: String? { dateOfIssueRecord?.value }

    /// The reference's `otherPersonDetails`: the names of other persons, without fillers; nil when none.
    public var otherPersonDetails: [String]? {
        namesOfOtherPersons.isEmpty ? nil : namesOfOtherPersons.map(DetailText.clean)
    }

    /// The reference's `endorsementsOrObservations`, without fillers.
    public var endorsementsOrObservations: String? { endorsementsAndObservations.map(DetailText.clean) }

    /// The reference's `personalizationTime`: YYYYMMDDhhmmss.
    public var personalizationTime: String? { dateAndTimeOfPersonalization?.value }

    /// The reference's `personalizationDeviceSerialNumber`, without fillers.
    public var personalizationDeviceSerialNumber: String? { personalizationSystemSerialNumber.map(DetailText.clean) }

    /// The reference's `AdditionalDocumentDetails`: texts without fillers, dates as digits
    /// (YYYYMMDD, YYYYMMDDhhmmss). Added: how the chip stored each date, and `tagList`.
    public var json: JSONValue {
        [
            "issuingAuthority": DetailText.optional(issuingAuthority),
            "dateOfIssue": .optional(dateOfIssue),
            "dateOfIssueISO8601": DetailText.iso8601(dateOfIssueRecord),
            "dateOfIssueEncoding": DetailText.encoding(dateOfIssueRecord),
            "otherPersonDetails": DetailText.linesJSON(otherPersonDetails),
            "endorsementsOrObservations": .optional(endorsementsOrObservations),
            "taxOrExitRequirements": DetailText.optional(taxOrExitRequirements),
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
