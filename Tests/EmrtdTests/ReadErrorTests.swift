import LDS
import Testing
import Transport

@testable import Emrtd

@Suite struct ReadErrorTests {
    @Test func messagesNameTheFailure() {
        #expect(
            readErrorMessage(error: ReadError(.accessControl, "the chip refused the BAC key (6300)"))
                == "access control failed: the chip refused the BAC key (6300)")
        #expect(readErrorMessage(error: ReadError(.read(.readingDataGroups), "")) == "reading the data groups failed")
        #expect(ReadError(transport: .Cancelled, during: "reading DG2").kind == .cancelled)
        let lost = ReadError(transport: .TagLost, during: "reading DG2")
        #expect(lost.kind == .transport(.TagLost) && lost.typeName == "tagLost")
    }

    /// The reference's cases, with this project's finer kind beside them.
    @Test func theReferencesCasesCarryTheFinerKind() {
        guard case .NotConnected(let reason, let info) = ReadError(transport: .TagLost, during: "reading DG2") else {
            Issue.record("a lost tag is not NotConnected")
            return
        }
        #expect(reason.hasPrefix("reading DG2") && info.transportError == .TagLost)
        let unexpected = ReadError(transport: .Unexpected(detail: "odd"), during: "SELECT")
        #expect(unexpected.readErrorKind == .unknown && unexpected.kind == .transport(.Unexpected(detail: "odd")))
        do {
            throw ReadError(.accessControl, "refused")
        } catch ReadError.AccessControl(let reason, _) {
            #expect(reason == "refused")
        } catch {
            Issue.record("\(error)")
        }
        // Setting the files read keeps the link failure.
        var lost = ReadError(transport: .Timeout, during: "x")
        lost.debugInfo = .empty
        #expect(lost.kind == .transport(.Timeout))
    }

    @Test func jsonCarriesCodeKindAndDetail() {
        let error = ReadError(.read(.readingDataGroups), "DG1 could not be read")
        let json = readErrorJSON(error)
        #expect(json["code"] == "read" && json["type"] == "read")
        #expect(json["kind"] == "readingDataGroups")
        #expect(json["detail"] == .null)
        #expect(json["debugInfo"]?["events"] == [])
        let io = readErrorJSON(ReadError(transport: .Io(detail: "reader unplugged"), during: "SELECT"))
        #expect(io["code"] == "not_connected" && io["type"] == "io" && io["detail"] == "reader unplugged")
        #expect(io["kind"] == .null)
        let unexpected = readErrorJSON(ReadError(transport: .Unexpected(detail: "odd answer"), during: "SELECT"))
        #expect(unexpected["code"] == "read" && unexpected["kind"] == "unknown")
        #expect(readErrorJSON(ReadError(.invalidArgument, "bad CAN"))["debugInfo"] == .null)
        // The reference's `Cancelled` has no reason.
        #expect(readErrorJSON(ReadError(.cancelled, "stopped"))["reason"] == .null)
    }

    @Test func masterFileJSONIsTheReferenceShape() {
        var files = LdsMasterFile()
        files.com = [0x60, 0x00]
        files[.dg2] = [0x75, 0x00]
        files.deniedFiles = [.dg3]
        let json = files.json
        guard case .object(let members) = json["lds1EmrtdApplication"] else {
            Issue.record("not an object")
            return
        }
        #expect(
            members.map(\.key) == ["com", "sod"]
                + [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map { "dg\($0)" })
        let application = json["lds1EmrtdApplication"]
        #expect(application?["com"] == ["id": "com", "bytes": "YAA="])
        // Absent is null, even for a mandatory file (a document always has those four).
        #expect(application?["dg1"] == .null)
        #expect(application?["dg3"] == ["id": "dg3", "bytes": .null] && application?["dg4"] == .null)
        #expect(json["cardAccess"] == .null)
        #expect(files.filesRead == [.com, .dg2])
    }
}
