/// A synthetic portrait for the specimen's DG2: a face drawn in 8×8-pixel cells and encoded as a
/// baseline grayscale JPEG (ITU-T T.81) right here, so no image file or encoder library is
/// needed. Each cell is one flat JPEG block: only its DC coefficient is coded (with the standard
/// luminance DC table), every AC part is an end-of-block, and the quantizer is 1.
enum SyntheticFace {
    /// The drawing, one character per 8×8 cell: ' ' background, 'h' hair, 's' skin, 'e' eye,
    /// 'm' mouth, 'c' clothes.
    static let cells = [
        "            ",
        "    hhhh    ",
        "   hhhhhh   ",
        "  hhssssshh ",
        "  hsssssssh ",
        "  hseessees ",
        "  sssssssss ",
        "  sssssssss ",
        "  ssssmmsss ",
        "   sssssss  ",
        "    sssss   ",
        "     sss    ",
        "  ccccccccc ",
        " ccccccccccc",
        "cccccccccccc",
    ]

    static let width = 8 * 12
    static let height = 8 * 15

    static func shade(_ cell: Character) -> Int {
        switch cell {
        case "h": 40
        case "s": 200
        case "e": 20
        case "m": 110
        case "c": 70
        default: 235
        }
    }

    /// The JPEG file (JFIF). `paddedTo` makes it that many bytes (when more than the drawing
    /// takes) with comment segments (COM, up to 65,533 bytes each), so that a data group as large
    /// as an issued document's 20–100 KB face stays a valid image the reader parses.
    static func jpeg(paddedTo size: Int = 0) -> [UInt8] {
        var file: [UInt8] = [0xFF, 0xD8]
        file += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        var padding = size > 0 ? size - unpaddedSize : 0
        while padding > 4 {
            let payload = min(padding - 4, 0xFFFF - 2)
            file += segment(0xFE, (0..<payload).map { UInt8(truncatingIfNeeded: $0 % 251) })
            padding -= payload + 4
        }
        file += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        file += segment(
            0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        // DC table 0: the standard luminance table (T.81 Table K.3).
        let dcCounts: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
        file += segment(0xC4, [0x00] + dcCounts + Array(0...11))
        // AC table 0: a single one-bit code for end-of-block (symbol 00).
        file += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        file += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        file += entropyCodedBlocks()
        file += [0xFF, 0xD9]
        return file
    }

    /// The size of the drawing's JPEG without padding.
    static let unpaddedSize = jpeg(paddedTo: 0).count

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The scan: per block, the DC difference (category code + bits) and the EOB bit, with
    /// 0xFF bytes stuffed and the last byte padded with ones.
    private static func entropyCodedBlocks() -> [UInt8] {
        // (code, length) of each DC category under the standard table.
        let dcCodes: [(UInt32, Int)] = [
            (0b00, 2), (0b010, 3), (0b011, 3), (0b100, 3), (0b101, 3), (0b110, 3), (0b1110, 4), (0b11110, 5),
            (0b111110, 6), (0b1111110, 7), (0b11111110, 8), (0b111111110, 9),
        ]
        var writer = BitWriter()
        var previous = 0
        for row in cells {
            for cell in row {
                // A flat block of value p has the DC coefficient 8 × (p − 128).
                let coefficient = 8 * (shade(cell) - 128)
                let difference = coefficient - previous
                previous = coefficient
                let category = difference == 0 ? 0 : Int.bitWidth - abs(difference).leadingZeroBitCount
                let (code, length) = dcCodes[category]
                writer.write(code, count: length)
                if category > 0 {
                    let bits = difference > 0 ? difference : difference - 1
                    writer.write(UInt32(truncatingIfNeeded: bits) & ((1 << category) - 1), count: category)
                }
                writer.write(0, count: 1)  // end of block
            }
        }
        return writer.finish()
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator: UInt32 = 0
        var pending = 0

        mutating func write(_ value: UInt32, count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) {
                accumulator = accumulator << 1 | (value >> UInt32(shift) & 1)
                pending += 1
                if pending == 8 { flush() }
            }
        }

        private mutating func flush() {
            let byte = UInt8(accumulator & 0xFF)
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0x00) }
            accumulator = 0
            pending = 0
        }

        mutating func finish() -> [UInt8] {
            while pending != 0 { write(1, count: 1) }
            return bytes
        }
    }
}
