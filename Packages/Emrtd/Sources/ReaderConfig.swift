import Foundation

/// How an `EmrtdReader` reads: which CSCAs it trusts, how long it waits for the chip, whether it
/// keeps a debug log, whether it renders JPEG 2000 images, and the inspection system it
/// authenticates as to read DG3 and DG4.
public struct ReaderConfig: Sendable {
    /// Trust the CSCA bundle built from `masterlist/` (see masterlist/README.md).
    public var useBuiltInAuthorityCertificates: Bool
    /// More trusted CSCAs: each entry a PEM bundle or one DER certificate. An entry holding no
    /// certificate is an `invalidArgument` error when the reader is made.
    public var authorityCertificates: [Data]
    /// The longest wait for one answer of the chip, in milliseconds, for every APDU of the read:
    /// a later answer fails the read with `TransportError.Timeout`, whatever the transport does
    /// (`emrtd read` also makes its `PCSCTransport` with it, so pcsc-lite gives up at the same time).
    public var timeoutMs: UInt32
    /// Keep a log of every step and APDU (secrets redacted) in `debugInfo`.
    public var debug: Bool
    /// Render each JPEG 2000 image (face, fingerprints, iris, portrait, signature, DG11/DG12
    /// images) to PNG in `DocumentImage.png`. Rendering a face takes tens of milliseconds,
    /// mostly compressing the PNG; a back end that keeps or forwards the image's own bytes
    /// turns it off, and every image keeps its bytes, format and pixel size either way.
    public var renderImages: Bool
    /// Terminal Authentication's certificates and signer: with them the read authenticates as
    /// an inspection system after Chip Authentication and reads DG3 and DG4 as its certificate
    /// allows; without them (nil) DG3 and DG4 stay denied (`authenticationStatus.terminal`).
    public var terminal: TerminalConfiguration?

    public init(
        useBuiltInAuthorityCertificates: Bool = true, authorityCertificates: [Data] = [], timeoutMs: UInt32 = 5000,
        debug: Bool = false, renderImages: Bool = true, terminal: TerminalConfiguration? = nil
    ) {
        self.useBuiltInAuthorityCertificates = useBuiltInAuthorityCertificates
        self.authorityCertificates = authorityCertificates
        self.timeoutMs = timeoutMs
        self.debug = debug
        self.renderImages = renderImages
        self.terminal = terminal
    }
}
