/// Bounds on what a JPEG 2000 codestream may make OpenJPEG do, checked on its headers before
/// OpenJPEG reads them. OpenJPEG allocates its state for every declared tile while reading the
/// header (kilobytes each: 65,535 tiles in a 300-byte codestream cost 280 MB), and while decoding
/// it builds every precinct and code-block the coding style declares and visits every packet:
/// 2×2 precincts over a 2048² face make 1.4 million precincts and 4 million code-blocks
/// (2.4 GB, seconds) from 134 bytes, and 65,535 quality layers multiply the packets it visits.
/// A document image (a face of a few hundred KB, a slap of four fingers of 10 M samples) needs
/// none of that, so such a codestream is refused, its bytes kept.
extension JPEG2000Decoder {
    /// Real document images use one tile or a few hundred.
    static let maximumTiles = 4096

    /// The memory a decode may be estimated to need (see `JPEG2000Header.estimatedMemory`): the
    /// largest image allowed (`maximumSamples`) with the usual 64×64 code-blocks needs about
    /// 140 MB.
    static let memoryBudget = 256 * 1024 * 1024

    /// Every packet takes at least one byte of a codestream (an empty packet's header is one
    /// bit, padded), so a codestream of n bytes holds at most n packets; the factor leaves room
    /// for a codestream cut short after its first layers, the floor for tiny images.
    static func maximumPackets(forLength length: Int) -> Int { max(4096, length.saturatingMultiply(8)) }

    /// Throws `tooLarge` when the headers declare more than a document image can need (tiles,
    /// samples, components, resolution levels, packets or estimated memory), `imageDecoding`
    /// when there is no well-formed SIZ or COD marker where the format puts them.
    static func checkDeclaredSize(_ bytes: [UInt8], format: ImageFormat) throws(LDSError) {
        var reader = ByteReader(bytes)
        if format == .jpeg2000 {
            try skipToCodestream(&reader)
        }
        let header = try JPEG2000Header(&reader)
        let cost = header.cost
        guard cost.packets <= maximumPackets(forLength: bytes.count) else {
            throw LDSError(
                .tooLarge,
                "JPEG 2000 image declaring \(cost.packets) packets (\(cost.precincts) precincts, "
                    + "\(header.style.layers) quality layer\(header.style.layers == 1 ? "" : "s")) in \(bytes.count) bytes "
                    + "is refused")
        }
        let memory = cost.estimatedMemory
        guard memory <= memoryBudget else {
            throw LDSError(
                .tooLarge,
                "JPEG 2000 image of \(header.width)×\(header.height) would need about \(memory / 1_048_576) MB "
                    + "to decode (\(cost.precinctBands) precinct bands, \(cost.codeBlocks) code-blocks), "
                    + "over the \(memoryBudget / 1_048_576) MB budget, and is refused")
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

/// The part of a codestream's headers that decides what decoding costs: the SIZ marker's grid,
/// and the most expensive coding style any COD or COC marker declares (main header or tile-part
/// headers), taken for every tile-component, which over-estimates only codestreams that mix
/// styles.
struct JPEG2000Header {
    /// The coding style parameters that drive the cost.
    struct CodingStyle {
        var layers = 0
        var levels = 0
        /// The smallest precinct exponents (2^15, "no precincts", when none are declared).
        var precinctWidthExponent = 15
        var precinctHeightExponent = 15
        var codeBlockWidthExponent = 15
        var codeBlockHeightExponent = 15
    }

    let width: Int
    let height: Int
    private let origin: (x: Int, y: Int)
    private let end: (x: Int, y: Int)
    private let tileSize: (width: Int, height: Int)
    private let tileOrigin: (x: Int, y: Int)
    private let tileGrid: (columns: Int, rows: Int)
    /// Each component's subsampling.
    private let subsampling: [(x: Int, y: Int)]
    private(set) var style = CodingStyle()

    /// The largest resolution-level count (OpenJPEG's own limit is 32).
    static let maximumLevels = 32

    init(_ reader: inout ByteReader) throws(LDSError) {
        guard reader.uint(2) == 0xFF4F, reader.uint(2) == 0xFF51, let sizLength = reader.uint(2), reader.skip(2),
            let xSize = reader.uint(4), let ySize = reader.uint(4), let xOffset = reader.uint(4),
            let yOffset = reader.uint(4), let tileWidth = reader.uint(4), let tileHeight = reader.uint(4),
            let tileXOffset = reader.uint(4), let tileYOffset = reader.uint(4), let components = reader.uint(2),
            xSize > xOffset, ySize > yOffset, tileWidth > 0, tileHeight > 0, tileXOffset <= xOffset,
            tileYOffset <= yOffset, components > 0, sizLength == 38 + 3 * components
        else {
            throw LDSError(.imageDecoding, "JPEG 2000 codestream without a valid SIZ marker")
        }
        let columns = (xSize - tileXOffset + tileWidth - 1) / tileWidth
        let rows = (ySize - tileYOffset + tileHeight - 1) / tileHeight
        let tiles = columns.saturatingMultiply(rows)
        guard tiles <= JPEG2000Decoder.maximumTiles else {
            throw LDSError(.tooLarge, "JPEG 2000 image of \(columns)×\(rows) tiles is refused")
        }
        (width, height) = (xSize - xOffset, ySize - yOffset)
        let samples = width.saturatingMultiply(height).saturatingMultiply(components)
        guard samples <= JPEG2000Decoder.maximumSamples else {
            throw LDSError(.tooLarge, "JPEG 2000 image of \(width)×\(height)×\(components) samples is refused")
        }
        // Grey, grey and alpha, colour, colour and alpha: all a document image has.
        guard components <= 4 else {
            throw LDSError(.tooLarge, "JPEG 2000 image of \(components) components is refused")
        }
        var subsampling: [(x: Int, y: Int)] = []
        for _ in 0..<components {
            guard reader.skip(1), let x = reader.uint(1), let y = reader.uint(1), x > 0, y > 0 else {
                throw LDSError(.imageDecoding, "JPEG 2000 codestream without a valid SIZ marker")
            }
            subsampling.append((x, y))
        }
        self.subsampling = subsampling
        origin = (xOffset, yOffset)
        end = (xSize, ySize)
        tileSize = (tileWidth, tileHeight)
        tileOrigin = (tileXOffset, tileYOffset)
        tileGrid = (columns, rows)
        var sawCodingStyle = false
        try readMarkers(&reader, components: components, sawCodingStyle: &sawCodingStyle)
        guard sawCodingStyle else {
            throw LDSError(.imageDecoding, "JPEG 2000 codestream without a COD marker")
        }
        guard style.levels <= Self.maximumLevels, 1 << style.levels <= 2 * max(width, height) else {
            throw LDSError(
                .tooLarge, "JPEG 2000 image of \(width)×\(height) with \(style.levels) resolution levels is refused")
        }
    }

    /// Reads the main header's and every tile-part header's marker segments up to the end of
    /// the data (each tile-part's data skipped by its SOT's length), keeping the costliest coding
    /// style.
    private mutating func readMarkers(
        _ reader: inout ByteReader, components: Int, sawCodingStyle: inout Bool
    ) throws(LDSError) {
        var tilePartEnd: Int?
        while let marker = reader.uint(2), marker != 0xFFD9 {
            if marker == 0xFF93 {  // SOD: the tile-part's data
                guard let end = tilePartEnd, reader.skip(end - reader.offset) else { return }
                tilePartEnd = nil
                continue
            }
            guard marker >= 0xFF30, let length = reader.uint(2), length >= 2, let body = reader.read(length - 2)
            else { return }
            var segment = ByteReader(body)
            switch marker {
            case 0xFF52:  // COD
                try readCodingStyle(&segment, componentIndexLength: nil)
                sawCodingStyle = true
            case 0xFF53:  // COC
                try readCodingStyle(&segment, componentIndexLength: components < 257 ? 1 : 2)
            case 0xFF90:  // SOT: Isot, then Psot, the tile-part's length from the SOT (0: up to EOC)
                guard segment.skip(2), let tilePartLength = segment.uint(4), tilePartLength > length + 2 else {
                    return
                }
                tilePartEnd = reader.offset - length - 2 + tilePartLength
            default:
                break
            }
        }
    }

    /// COD (Scod, progression, layers, MCT, then SPcod) or COC (component, Scoc, then SPcoc):
    /// levels, code-block size, style, transform, and the precinct sizes when Scod's bit 0 says.
    private mutating func readCodingStyle(_ segment: inout ByteReader, componentIndexLength: Int?) throws(LDSError) {
        if let componentIndexLength {
            guard segment.skip(componentIndexLength) else { throw Self.malformed("COC") }
        }
        guard let flags = segment.uint(1) else { throw Self.malformed("COD") }
        if componentIndexLength == nil {
            guard segment.skip(1), let layers = segment.uint(2), segment.skip(1), layers > 0 else {
                throw Self.malformed("COD")
            }
            style.layers = max(style.layers, layers)
        }
        guard let levels = segment.uint(1), let blockWidth = segment.uint(1), let blockHeight = segment.uint(1),
            segment.skip(2), levels <= Self.maximumLevels, blockWidth <= 8, blockHeight <= 8,
            blockWidth + blockHeight <= 8
        else { throw Self.malformed(componentIndexLength == nil ? "COD" : "COC") }
        style.levels = max(style.levels, levels)
        style.codeBlockWidthExponent = min(style.codeBlockWidthExponent, blockWidth + 2)
        style.codeBlockHeightExponent = min(style.codeBlockHeightExponent, blockHeight + 2)
        guard flags & 1 == 1 else { return }
        for _ in 0...levels {
            guard let sizes = segment.uint(1) else { throw Self.malformed("precinct sizes") }
            style.precinctWidthExponent = min(style.precinctWidthExponent, sizes & 0x0F)
            style.precinctHeightExponent = min(style.precinctHeightExponent, sizes >> 4)
        }
    }

    private static func malformed(_ marker: String) -> LDSError {
        LDSError(.imageDecoding, "JPEG 2000 codestream with a malformed \(marker) marker")
    }

    /// What decoding costs: over every tile, component and resolution, the precincts (each
    /// carrying a packet per layer), precinct bands (each with two tag trees) and code-blocks.
    struct Cost {
        var samples = 0
        var precincts = 0
        var precinctBands = 0
        var codeBlocks = 0
        var packets = 0

        /// What OpenJPEG 2.5 allocates to decode, in bytes: 8 per sample (the tile's 32-bit
        /// buffer and the image's) and about 600 per precinct band with its code-block (the
        /// precinct, its two tag trees, the code-block's state), measured: 2.37 GB for the 4.2
        /// million of a 2048² codestream with 2×2 precincts.
        var estimatedMemory: Int {
            samples.saturatingMultiply(8).saturatingAdd(precinctBands.saturatingMultiply(250))
                .saturatingAdd(codeBlocks.saturatingMultiply(350))
        }
    }

    var cost: Cost {
        var cost = Cost()
        let (px, py) = (style.precinctWidthExponent, style.precinctHeightExponent)
        for row in 0..<tileGrid.rows {
            for column in 0..<tileGrid.columns {
                let x0 = max(tileOrigin.x + column * tileSize.width, origin.x)
                let y0 = max(tileOrigin.y + row * tileSize.height, origin.y)
                let x1 = min(tileOrigin.x + (column + 1) * tileSize.width, end.x)
                let y1 = min(tileOrigin.y + (row + 1) * tileSize.height, end.y)
                for (dx, dy) in subsampling {
                    let (cx0, cy0) = (x0.ceilingDivided(by: dx), y0.ceilingDivided(by: dy))
                    let (cx1, cy1) = (x1.ceilingDivided(by: dx), y1.ceilingDivided(by: dy))
                    cost.samples = cost.samples.saturatingAdd(max(0, cx1 - cx0) * max(0, cy1 - cy0))
                    for resolution in 0...style.levels {
                        let scale = 1 << (style.levels - resolution)
                        let (rx0, ry0) = (cx0.ceilingDivided(by: scale), cy0.ceilingDivided(by: scale))
                        let (rx1, ry1) = (cx1.ceilingDivided(by: scale), cy1.ceilingDivided(by: scale))
                        guard rx1 > rx0, ry1 > ry0 else { continue }
                        let precincts = (rx1.ceilingDivided(by: 1 << px) - rx0 >> px)
                            .saturatingMultiply(ry1.ceilingDivided(by: 1 << py) - ry0 >> py)
                        // Above the lowest resolution a precinct's band is half the precinct,
                        // and its code-blocks no larger; the code-block grid is aligned with
                        // the precincts', so each band's blocks are counted over the band.
                        let (bands, halving) = resolution == 0 ? (1, 0) : (3, 1)
                        let blockWidth = 1 << min(style.codeBlockWidthExponent, max(px - halving, 0))
                        let blockHeight = 1 << min(style.codeBlockHeightExponent, max(py - halving, 0))
                        let across = (rx1 - rx0).ceilingDivided(by: 1 << halving).ceilingDivided(by: blockWidth) + 1
                        let down = (ry1 - ry0).ceilingDivided(by: 1 << halving).ceilingDivided(by: blockHeight) + 1
                        cost.precincts = cost.precincts.saturatingAdd(precincts)
                        cost.precinctBands = cost.precinctBands.saturatingAdd(precincts.saturatingMultiply(bands))
                        cost.codeBlocks = cost.codeBlocks.saturatingAdd(
                            across.saturatingMultiply(down).saturatingMultiply(bands))
                    }
                }
            }
        }
        cost.packets = cost.precincts.saturatingMultiply(style.layers)
        return cost
    }
}

extension Int {
    fileprivate func saturatingMultiply(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }

    fileprivate func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    fileprivate func ceilingDivided(by divisor: Int) -> Int { (self + divisor - 1) / divisor }
}
