import LDS
import Testing
import Transport

@testable import Emrtd

@Suite struct ReadErrorTests {
    @Test func messagesNameTheFailure() {
        #expect(
            readErrorMessage(ReadError(.accessControl, "the chip refused the BAC key (6300)"))
                == "access control failed: the chip refused the BAC key (6300)")
        #expect(readErrorMessage(ReadError(.read(.readingDataGroups), "")) == "reading the data groups failed")
        #expect(ReadError(transport: .cancelled, during: "reading DG2").kind == .cancelled)
        let lost = ReadError(transport: .tagLost, during: "reading DG2")
        #expect(lost.kind == .transport(.tagLost) && lost.typeName == "tagLost")
    }

    @Test func jsonCarriesTypeKindAndDetail() {
        let error = ReadError(.read(.readingDataGroups), "DG1 could not be read")
        let json = readErrorJSON(error)
        #expect(json["type"] == "read")
        #expect(json["kind"] == "readingDataGroups")
        #expect(json["detail"] == .null)
        #expect(json["debugInfo"] == .null)
        let io = readErrorJSON(ReadError(transport: .io("reader unplugged"), during: "SELECT"))
        #expect(io["type"] == "io" && io["detail"] == "reader unplugged" && io["kind"] == .null)
    }

    @Test func masterFileJSONHasEveryKey() {
        var files = LdsMasterFile()
        files.com = [0x60, 0x00]
        files[.dg2] = [0x75, 0x00]
        let json = files.json
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == LDSFileKind.allCases.map(\.rawValue))
        #expect(json["com"] == "YAA=" && json["dg2"] == "dQA=" && json["dg1"] == .null)
        #expect(files.filesRead == [.com, .dg2])
    }
}
