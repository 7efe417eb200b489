import CEmrtdABI
import Emrtd
import EmrtdC
import JSON
import Testing

/// The exports called as a C host calls them: status, JSON out, and bad input refused.
struct EmrtdCTests {
    /// Calls `body` with the output pointers and returns the status and the text, freed.
    private func call(
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<Int>) -> Int32
    ) -> (status: Int32, json: JSONValue?) {
        var result: UnsafeMutablePointer<CChar>?
        var length = 0
        let status = body(&result, &length)
        defer { emrtdFree(result) }
        guard let result else { return (status, nil) }
        let text = String(cString: result)
        #expect(text.utf8.count == length)
        return (status, try? JSONValue.parse(text))
    }

    private func parse(_ text: String) -> (status: Int32, json: JSONValue?) {
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                call { emrtdParseMrz(bytes.baseAddress, bytes.count, $0, $1) }
            }
        }
    }

    /// `emrtd_version()` is `Emrtd`'s one version, the same static text on every call (a host
    /// keeps the pointer and never frees it).
    @Test func versionIsEmrtdsStaticText() {
        let first = emrtdVersion()
        #expect(String(cString: first) == "\(emrtdReleaseVersion)")
        #expect(emrtdVersion() == first)
        #expect(String(cString: first).first?.isNumber == true)
    }

    @Test func parsesTheSpecimenPassportZone() {
        // ICAO 9303-4 Appendix A's specimen.
        let (status, json) = parse(
            #"["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]"#)
        #expect(status == Int32(EMRTD_OK))
        #expect(json?["travelDocumentType"] == .string("td3"))
        #expect(json?["td3"]?["passportNumber"]?["value"] == .string("L898902C3"))
    }

    @Test func refusesWhatIsNotAZone() {
        for text in ["[\"ABC\"]", "not json", "{\"lines\": 1}", "[1, 2]"] {
            let (status, json) = parse(text)
            #expect(status == Int32(EMRTD_INVALID_ARGUMENT), "\(text)")
            #expect(json?["code"] == .string("invalid_argument"), "\(text)")
            #expect(json?["debugInfo"] == .null)
        }
    }

    @Test func refusesNullAndBadUTF8() {
        let nullText = call { emrtdParseMrz(nil, 12, $0, $1) }
        #expect(nullText.status == Int32(EMRTD_INVALID_ARGUMENT))
        #expect(nullText.json?["reason"] == .string("the MRZ lines is NULL with a length of 12"))
        let invalid: [CChar] = [0x5B, -0x3F, 0x5D]  // "[", a lone 0xC1, "]"
        let badUTF8 = invalid.withUnsafeBufferPointer { bytes in call { emrtdParseMrz(bytes.baseAddress, 3, $0, $1) } }
        #expect(badUTF8.json?["reason"] == .string("the MRZ lines is not UTF-8 text"))
        #expect(emrtdParseMrz(nil, 0, nil, nil) == Int32(EMRTD_INVALID_ARGUMENT))
    }

    @Test func verifyRefusesADumpWithoutSecurityObject() {
        var request = #"{"files": {"DG1.bin": "YQ=="}, "at": "2026-06-01"}"#
        let (status, json) = request.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                call { emrtdVerify(bytes.baseAddress, bytes.count, nil, $0, $1) }
            }
        }
        #expect(status == Int32(EMRTD_INVALID_ARGUMENT))
        #expect(json?["reason"] == .string("the files given holds no SOD.bin (the layout `emrtd dump` writes)"))
    }

    /// The caller's Active Authentication challenge is 8 bytes in hex; anything else is refused
    /// before the dump is looked at.
    @Test func verifyRefusesAChallengeThatIsNotEightBytes() {
        for challenge in ["0102", "zz02030405060708", "010203040506070809"] {
            var request = #"{"files": {"DG1.bin": "YQ=="}, "challenge": "\#(challenge)"}"#
            let (status, json) = request.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { bytes in
                    call { emrtdVerify(bytes.baseAddress, bytes.count, nil, $0, $1) }
                }
            }
            #expect(status == Int32(EMRTD_INVALID_ARGUMENT))
            #expect(
                json?["reason"] == .string("challenge must be the 8-byte Active Authentication challenge in hex"),
                "\(challenge)")
        }
    }

    @Test func readRefusesOptionsWithoutAccessKey() {
        var options = #"{"timeoutMs": 100}"#
        var callbacks = emrtd_transport()
        callbacks.transceive = { _, _, _, _, _, _ in Int32(EMRTD_TRANSPORT_IO) }
        let (status, json) = options.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                call { emrtdRead(&callbacks, bytes.baseAddress, bytes.count, nil, nil, $0, $1) }
            }
        }
        #expect(status == Int32(EMRTD_INVALID_ARGUMENT))
        #expect(json?["reason"] == .string("the read options have no \"accessKey\""))
    }
}
