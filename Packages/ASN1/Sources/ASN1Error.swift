/// The one error the ASN.1 layer throws: a machine-readable `code` and a
/// human-readable `reason` that says where and why.
public struct ASN1Error: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The input ends inside a tag, a length or a value.
        public static let truncated = Code("truncated")
        /// A length that cannot be right: reserved forms, more than 8 length bytes,
        /// non-minimal in DER, or longer than the input.
        public static let invalidLength = Code("invalidLength")
        /// Nesting deeper than the parser's limit.
        public static let tooDeep = Code("tooDeep")
        /// Bytes after the value where none may follow.
        public static let trailingData = Code("trailingData")
        /// Indefinite length where DER was required, or on a primitive value.
        public static let indefiniteLengthNotAllowed = Code("indefiniteLengthNotAllowed")
        /// A tag number that does not fit or is not minimally encoded.
        public static let invalidTag = Code("invalidTag")
        /// A node with another tag than the one the structure requires.
        public static let unexpectedTag = Code("unexpectedTag")
        /// A value whose content is not valid for its type.
        public static let invalidValue = Code("invalidValue")
        /// A required element is missing.
        public static let missingElement = Code("missingElement")
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "ASN1Error.\(code): \(reason)" }
}
