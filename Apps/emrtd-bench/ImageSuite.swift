import COpenJPEG
import Foundation
import LDS

/// `emrtd-bench image`: rendering JPEG 2000 images of ../shared/data (two DG2 faces, a DG4 iris,
/// a DG7 signature; tsemrtd's DG5 holds bsi2008's face again) to PNG through `DocumentImage`,
/// beside OpenJPEG decoding the same image alone (`opj_read_header` and `opj_decode` over a file
/// stream, as `opj_decompress` starts). The codec is the floor of a rendering, so the ratio
/// (below 1) is the share of our rendering that is OpenJPEG's: the rest is ours, bringing the
/// components to 8 bits, interleaving them and writing the PNG. Rates in images per second.
let imageSuite = Suite(name: "image", title: "image: emrtd JPEG 2000 → PNG vs OpenJPEG decode alone") { run in
    let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
    let samples: [(path: String, kind: LDSFileKind)] = [
        ("jmrtd/bsi2008/Datagroup2.bin", .dg2), ("jmrtd/loes2006/ef0102.bin", .dg2),
        ("jmrtd/bsi2008/Datagroup4.bin", .dg4), ("tsemrtd/EF_DG7.bin", .dg7),
    ]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emrtd-bench-image-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for sample in samples {
        let file = [UInt8](try Data(contentsOf: data.appendingPathComponent(sample.path)))
        guard let image = firstJPEG2000Image(in: file, kind: sample.kind) else {
            throw BenchFailure("no JPEG 2000 image in \(sample.path)")
        }
        let (width, height) = (image.size.width, image.size.height)
        let path = directory.appendingPathComponent("image.\(image.format.fileExtension)").path
        try image.bytes.write(to: URL(fileURLWithPath: path))
        let bytes = [UInt8](image.bytes)
        let codec = image.format == .jpeg2000 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K
        guard openJPEGDecodes(path, codec: codec), DocumentImage(bytes: bytes).png != nil else {
            throw BenchFailure("\(sample.path) does not decode")
        }
        run.compare(
            "\(sample.path) \(width)×\(height)", unit: "images/s",
            emrtd: { _ in _ = DocumentImage(bytes: bytes) },
            reference: { _ in _ = openJPEGDecodes(path, codec: codec) })
    }
}

/// The first JPEG 2000 image a data group holds, unrendered.
private func firstJPEG2000Image(in file: [UInt8], kind: LDSFileKind) -> DocumentImage? {
    let images = (try? LDSFileParser.parse(file, as: kind, renderImages: false))?.images ?? []
    return images.first { $0.format.isJPEG2000 }
}

/// OpenJPEG alone: header and decode of the file at `path` with the default parameters.
private func openJPEGDecodes(_ path: String, codec format: OPJ_CODEC_FORMAT) -> Bool {
    guard let stream = opj_stream_create_default_file_stream(path, 1) else { return false }
    defer { opj_stream_destroy(stream) }
    guard let codec = opj_create_decompress(format) else { return false }
    defer { opj_destroy_codec(codec) }
    var parameters = opj_dparameters_t()
    opj_set_default_decoder_parameters(&parameters)
    var header: UnsafeMutablePointer<opj_image_t>?
    guard opj_setup_decoder(codec, &parameters) != 0, opj_read_header(stream, codec, &header) != 0,
        let image = header
    else { return false }
    defer { opj_image_destroy(image) }
    return opj_decode(codec, stream, image) != 0 && opj_end_decompress(codec, stream) != 0
}
