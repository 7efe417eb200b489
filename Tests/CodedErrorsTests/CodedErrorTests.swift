import CodedErrors
import Testing

private enum SampleCode: String, ErrorCode {
    case malformed
    case tooLarge
}

private enum QuietCode: String, ErrorCode {
    case cannotWrite
    static var showsCodeInDescription: Bool { false }
}

private typealias SampleError = PackageError<SampleCode>

@Suite struct CodedErrorTests {
    @Test func descriptionNamesTheCodeThenTheReason() {
        let error = SampleError(.tooLarge, "the file declares 70000 bytes")
        #expect(error.description == "tooLarge: the file declares 70000 bytes")
        #expect(error.code == .tooLarge)
        #expect(error.reason == "the file declares 70000 bytes")
    }

    @Test func aCodeMayLeaveTheReasonAlone() {
        let error = PackageError<QuietCode>(.cannotWrite, "cannot write /tmp/x: no space left")
        #expect("\(error)" == "cannot write /tmp/x: no space left")
    }

    @Test func errorsCompareByCodeAndReason() {
        #expect(SampleError(.malformed, "a") == SampleError(.malformed, "a"))
        #expect(SampleError(.malformed, "a") != SampleError(.tooLarge, "a"))
        #expect(SampleError(.malformed, "a") != SampleError(.malformed, "b"))
    }

    @Test func typedThrowsCarryTheCode() {
        func failing() throws(SampleError) { throw SampleError(.malformed, "bad tag") }
        #expect(throws: SampleError(.malformed, "bad tag")) { try failing() }
    }
}
