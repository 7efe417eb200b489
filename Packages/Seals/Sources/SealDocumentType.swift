/// A document type a VDS names by its document feature definition reference and type category
/// (ICAO Doc 9303-13 §2.3, BSI TR-03137 Part 1), with the features of its message zone: tag,
/// name and how the value is encoded.
public struct SealDocumentType: Sendable, Hashable {
    /// How a feature's value is encoded, so it is typed rather than shown as bytes.
    public enum Coding: Sendable, Hashable {
        /// An MRZ in C40 (`<` written as space): 90 characters are three TD1 lines, any other
        /// length two lines of half of it (TD2 and MRV-B 72, TD3 88).
        case mrz
        /// A visa's MRZ: a first line of `lineLength` (MRV-A 44, MRV-B 36), then the second line
        /// without its optional data (28 characters, 9303-13 §4.3).
        case visaMRZ(lineLength: Int)
        /// Text in C40: document, passport, AZR and sheet numbers, municipality codes, addresses.
        case c40
        /// UTF-8 text (names).
        case utf8
        /// One unsigned byte (number of entries, housing status).
        case byte
        /// Days, months and years, one byte each (a visa's duration of stay); another length
        /// (vdstools' IDB visa writes one byte) is kept as bytes.
        case duration
        /// Bytes kept as they are (a face image, a visa type).
        case bytes
        /// A date of which some digits may be unknown (IDB): a mask byte (bit 7 the first digit of
        /// MMDDYYYY) and the date in three bytes; unknown digits are written `x`.
        case maskedDate
        /// A message zone of its own, typed as the VDS document type `reference` (an IDB's visa
        /// and emergency travel document).
        case nested(reference: UInt16)
    }

    public struct Feature: Sendable, Hashable {
        public let tag: UInt8
        public let name: String
        public let coding: Coding
    }

    /// The name vdstools and BSI TR-03137 use (`VISA`, `RESIDENCE_PERMIT`, …).
    public let name: String
    /// Feature definition reference (high byte) and type category (low byte).
    public let reference: UInt16
    public let features: [Feature]

    public func feature(tagged tag: UInt8) -> Feature? { features.first { $0.tag == tag } }

    /// The type `reference` names, nil when this package does not know it.
    public static func named(by reference: UInt16) -> SealDocumentType? { known.first { $0.reference == reference } }

    private init(_ name: String, _ reference: UInt16, _ features: [(UInt8, String, Coding)]) {
        self.name = name
        self.reference = reference
        self.features = features.map { Feature(tag: $0.0, name: $0.1, coding: $0.2) }
    }

    /// ICAO's visa and emergency travel document, BSI TR-03137's German documents, TR-03171's
    /// administrative documents, and the older German profiles vdstools read until 2024.
    public static let known: [SealDocumentType] = [
        SealDocumentType(
            "VISA", 0x5D01,
            [
                (1, "MRZ_MRVA", .visaMRZ(lineLength: 44)), (2, "MRZ_MRVB", .visaMRZ(lineLength: 36)),
                (3, "NUMBER_OF_ENTRIES", .byte), (4, "DURATION_OF_STAY", .duration),
                (5, "PASSPORT_NUMBER", .c40), (6, "VISA_TYPE", .bytes), (7, "ADDITIONAL_FEATURES", .bytes),
            ]),
        SealDocumentType("EMERGENCY_TRAVEL_DOCUMENT", 0x5E03, [(2, "MRZ", .mrz)]),
        SealDocumentType(
            "ARRIVAL_ATTESTATION", 0xFD02, [(2, "MRZ", .mrz), (3, "AZR", .c40)]),
        SealDocumentType(
            "ADDRESS_STICKER_ID", 0xF908, [(1, "DOCUMENT_NUMBER", .c40), (2, "AGS", .c40), (3, "ADDRESS", .c40)]),
        SealDocumentType(
            "ADDRESS_STICKER_RP", 0xF90C, [(1, "DOCUMENT_NUMBER", .c40), (2, "AGS", .c40), (3, "ADDRESS", .c40)]),
        SealDocumentType(
            "ADDRESS_STICKER_PASSPORT", 0xF80A,
            [(1, "DOCUMENT_NUMBER", .c40), (2, "AGS", .c40), (3, "POSTAL_CODE", .c40)]),
        SealDocumentType(
            "RESIDENCE_PERMIT", 0xFB06, [(2, "MRZ", .mrz), (3, "PASSPORT_NUMBER", .c40)]),
        SealDocumentType(
            "SOCIAL_INSURANCE_CARD", 0xFC04,
            [
                (1, "SOCIAL_INSURANCE_NUMBER", .c40), (2, "SURNAME", .utf8), (3, "FIRST_NAME", .utf8),
                (4, "BIRTH_NAME", .utf8),
            ]),
        SealDocumentType(
            "SUPPLEMENTARY_SHEET", 0xFA06, [(4, "MRZ", .mrz), (5, "SHEET_NUMBER", .c40)]),
        SealDocumentType(
            "ADMINISTRATIVE_DOCUMENTS_V8", 0x01C8,
            [
                (0, "DOC_PROFILE_NUMBER", .bytes), (4, "SURNAME", .utf8), (5, "ACADEMIC_DEGREE", .utf8),
                (6, "FIRST_NAME", .utf8), (7, "COMMON_FIRST_NAME", .utf8), (8, "DATE_OF_BIRTH", .utf8),
                (9, "STREET", .utf8), (10, "HOUSE_NUMBER", .utf8), (11, "POSTAL_CODE", .utf8), (12, "CITY", .utf8),
                (13, "MOVING_DATE", .utf8), (14, "HOUSING_STATUS", .byte), (15, "DATE_OF_NOTIFICATION", .utf8),
            ]),
        SealDocumentType("TEMP_PASSPORT", 0xF60D, [(1, "FACE_IMAGE", .bytes), (2, "MRZ", .mrz)]),
        SealDocumentType("TEMP_PERSO", 0xF70B, [(1, "FACE_IMAGE", .bytes), (2, "MRZ", .mrz)]),
        SealDocumentType(
            "FICTION_CERT", 0xF50C,
            [(1, "FACE_IMAGE", .bytes), (2, "MRZ", .mrz), (3, "PASSPORT_NUMBER", .c40), (4, "AZR", .c40)]),
        SealDocumentType(
            "PERMANENT_RESIDENCE_CERT", 0xF48F, [(1, "DOCUMENT_NUMBER", .c40), (2, "PASSPORT_NUMBER", .c40)]),
    ]

    /// The ICAO Datastructure for Barcode's message group (9303-13 §4 of its 2024 edition, tags
    /// of the IDB profile vdstools reads).
    public static let idbMessageGroup = SealDocumentType(
        "IDB", 0,
        [
            (0x01, "VISA", .nested(reference: 0x5D01)), (0x02, "EMERGENCY_TRAVEL_DOCUMENT", .nested(reference: 0x5E03)),
            (0x07, "MRZ_TD1", .mrz), (0x08, "MRZ_TD3", .mrz), (0x09, "CAN", .c40), (0x80, "FACE_IMAGE", .bytes),
            (0x81, "MRZ_TD2", .mrz), (0x82, "DOCUMENT_REFERENCE", .c40), (0x83, "AZR", .c40),
            (0x84, "EXPIRY_DATE", .maskedDate), (0x85, "DOCUMENT_NUMBER", .c40),
            (0x86, "NATIONAL_DOCUMENT_IDENTIFIER", .byte),
        ])

    /// TR-03171 administrative documents name their profile by a UUID in feature 0.
    static let administrativeProfiles: [[UInt8]: String] = [
        [0x9A, 0x42, 0x23, 0x40, 0x6D, 0x37, 0x4E, 0xF9, 0x9E, 0x2C, 0xF9, 0x5E, 0x31, 0xA2, 0x38, 0x46]:
            "MELDEBESCHEINIGUNG"
    ]
}
