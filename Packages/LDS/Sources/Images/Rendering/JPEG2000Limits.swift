/// Caps on what a JPEG 2000 header may declare, checked before OpenJPEG reads it: OpenJPEG
/// allocates its state for every declared tile while reading the header (kilobytes each, so a
/// 300-byte codestream declaring 65,535 tiles costs 280 MB), and a buffer per component of the
/// declared size when decoding.
extension JPEG2000Decoder {
    /// Real document images use one tile or a few hundred.
    static let maximumTiles = 4096

    /// Throws `tooLarge` when the SIZ marker declares more tiles than `maximumTiles` or more
    /// samples (width × height × components) than `maximumSamples`, `imageDecoding` when there
    /// is no well-formed SIZ marker where the format puts it.
    static func checkDeclaredSize(_ bytes: [UInt8], format: ImageFormat) throws(LDSError) {
        var reader = ByteReader(bytes)
        if format == .jpeg2000 {
            try skipToCodestream(&reader)
        }
        guard reader.uint(2) == 0xFF4F, reader.uint(2) == 0xFF51, reader.skip(4),
            let xSize = reader.uint(4), let ySize = reader.uint(4), let xOffset = reader.uint(4),
            let yOffset = reader.uint(4), let tileWidth = reader.uint(4), let tileHeight = reader.uint(4),
            let tileXOffset = reader.uint(4), let tileYOffset = reader.uint(4), let components = reader.uint(2),
            xSize > xOffset, ySize > yOffset, tileWidth > 0, tileHeight > 0, tileXOffset <= xOffset,
            tileYOffset <= yOffset, components > 0
        else {
            throw LDSError(.imageDecoding, "JPEG 2000 codestream without a valid SIZ marker")
        }
        let columns = (xSize - tileXOffset + tileWidth - 1) / tileWidth
        let rows = (ySize - tileYOffset + tileHeight - 1) / tileHeight
        let (tiles, tilesOverflow) = columns.multipliedReportingOverflow(by: rows)
        guard !tilesOverflow, tiles <= maximumTiles else {
            throw LDSError(.tooLarge, "JPEG 2000 image of \(columns)×\(rows) tiles is refused")
        }
        let (pixels, pixelsOverflow) = (xSize - xOffset).multipliedReportingOverflow(by: ySize - yOffset)
        let (samples, samplesOverflow) = pixels.multipliedReportingOverflow(by: components)
        guard !pixelsOverflow, !samplesOverflow, samples <= maximumSamples else {
            throw LDSError(
                .tooLarge,
                "JPEG 2000 image of \(xSize - xOffset)×\(ySize - yOffset)×\(components) samples is refused")
        }
    }

    /// Moves past the JP2 boxes before the contiguous codestream box (`jp2c`).
    private static func skipToCodestream(_ reader: inout ByteReader) throws(LDSError) {
        while let length = reader.uint(4), let type = reader.uint(4) {
            var contentLength = length - 8
            if length == 1 {
                guard let extended = reader.uint(8) else { break }
                contentLength = extended - 16
            }
            if type == 0x6A70_3263 { return }  // "jp2c"
            guard length != 0, contentLength >= 0, reader.skip(contentLength) else { break }
        }
        throw LDSError(.imageDecoding, "JP2 file without a codestream box")
    }
}
