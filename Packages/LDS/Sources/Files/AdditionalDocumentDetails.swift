import ASN1
import JSON

/// DG12, additional document details (ICAO 9303-10 §4.7.12). Dates as text or BCD bytes.
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
    public var dateOfIssue: LDSDate?
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
        dateOfIssue = reader.date(0x5F26)
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
        issuingAuthority: String? = nil, dateOfIssue: LDSDate? = nil, namesOfOtherPersons: [String] = [],
        endorsementsAndObservations: String? = nil, taxOrExitRequirements: String? = nil,
        imageOfFront: DocumentImage? = nil, imageOfRear: DocumentImage? = nil,
        dateAndTimeOfPersonalization: LDSDate? = nil, personalizationSystemSerialNumber: String? = nil
    ) {
        rawBytes = []
        tagList = []
        warnings = []
        self.issuingAuthority = issuingAuthority
        self.dateOfIssue = dateOfIssue
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
        writer.date(0x5F26, dateOfIssue)
        writer.names(0xA0, 0x5F1A, namesOfOtherPersons)
        writer.text(0x5F1B, endorsementsAndObservations)
        writer.text(0x5F1C, taxOrExitRequirements)
        writer.image(0x5F1D, imageOfFront)
        writer.image(0x5F1E, imageOfRear)
        writer.date(0x5F55, dateAndTimeOfPersonalization)
        writer.text(0x5F56, personalizationSystemSerialNumber)
        return writer.file(outerTag: 0x6C)
    }

    /// The reference's `AdditionalDocumentDetails`: texts without fillers, dates as digits
    /// (YYYYMMDD, YYYYMMDDhhmmss). Added: how the chip stored each date, and `tagList`.
    public var json: JSONValue {
        [
            "issuingAuthority": DetailText.optional(issuingAuthority),
            "dateOfIssue": .optional(dateOfIssue),
            "dateOfIssueISO8601": DetailText.iso8601(dateOfIssue),
            "dateOfIssueEncoding": DetailText.encoding(dateOfIssue),
            "otherPersonDetails": namesOfOtherPersons.isEmpty
                ? .null : .array(namesOfOtherPersons.map { .string(DetailText.clean($0)) }),
            "endorsementsOrObservations": DetailText.optional(endorsementsAndObservations),
            "taxOrExitRequirements": DetailText.optional(taxOrExitRequirements),
            "imageOfFront": .optional(imageOfFront),
            "imageOfRear": .optional(imageOfRear),
            "personalizationTime": .optional(dateAndTimeOfPersonalization),
            "personalizationTimeISO8601": DetailText.iso8601(dateAndTimeOfPersonalization),
            "personalizationTimeEncoding": DetailText.encoding(dateAndTimeOfPersonalization),
            "personalizationDeviceSerialNumber": DetailText.optional(personalizationSystemSerialNumber),
            "tagList": tagListJSON(tagList),
        ]
    }
}
