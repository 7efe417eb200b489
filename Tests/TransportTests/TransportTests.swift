import Testing

@testable import Transport

@Suite struct CommandAPDUTests {
    @Test func case1HasHeaderOnly() throws {
        let select = CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C)
        #expect(select.isoCase == 1)
        #expect(try select.encoded() == [0x00, 0xA4, 0x00, 0x0C])
    }

    @Test func case2ShortEncodesLe256AsZero() throws {
        #expect(try CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8).encoded() == [0x00, 0x84, 0, 0, 0x08])
        let read = CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256)
        #expect(read.isoCase == 2)
        #expect(!read.needsExtendedLength)
        #expect(try read.encoded() == [0x00, 0xB0, 0, 0, 0x00])
    }

    @Test func case2ExtendedEncodesLe65536AsZeroZero() throws {
        let read = CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 65536)
        #expect(read.needsExtendedLength)
        #expect(try read.encoded() == [0x00, 0xB0, 0, 0, 0x00, 0x00, 0x00])
        #expect(
            try CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 257).encoded() == [0, 0xB0, 0, 0, 0, 0x01, 0x01])
        #expect(
            try CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 4).encoded(extended: true) == [
                0, 0xB0, 0, 0, 0, 0, 4,
            ])
    }

    @Test func case3ShortAndExtended() throws {
        let select = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E])
        #expect(select.isoCase == 3)
        #expect(try select.encoded() == [0x00, 0xA4, 0x02, 0x0C, 0x02, 0x01, 0x1E])
        #expect(try select.encoded(extended: true) == [0x00, 0xA4, 0x02, 0x0C, 0x00, 0x00, 0x02, 0x01, 0x1E])
        let long = CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 0xAB, count: 300))
        #expect(try long.encoded().prefix(7) == [0x00, 0xD6, 0, 0, 0x00, 0x01, 0x2C])
        #expect(try long.encoded().count == 7 + 300)
    }

    @Test func case4ShortAndExtended() throws {
        let command = CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: [1, 2, 3], expectedLength: 0x28)
        #expect(command.isoCase == 4)
        #expect(try command.encoded() == [0x00, 0x82, 0, 0, 3, 1, 2, 3, 0x28])
        #expect(try command.encoded(extended: true) == [0x00, 0x82, 0, 0, 0, 0, 3, 1, 2, 3, 0, 0x28])
        let wrapped = CommandAPDU(cla: 0x0C, ins: 0xB0, p1: 0, p2: 0, data: [9], expectedLength: 65536)
        #expect(try wrapped.encoded() == [0x0C, 0xB0, 0, 0, 0, 0, 1, 9, 0, 0])
    }

    @Test func rejectsWhatCannotBeEncoded() {
        #expect(throws: TransportError.self) {
            try CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 65536)).encoded()
        }
        #expect(throws: TransportError.self) { try CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 0).encoded() }
        #expect(throws: TransportError.self) {
            try CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 65537).encoded()
        }
    }

    @Test(arguments: [
        CommandAPDU(ins: 0xA4, p1: 0, p2: 0x0C),
        CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256),
        CommandAPDU(ins: 0xB0, p1: 0x7F, p2: 0xFF, expectedLength: 65536),
        CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 1000),
        CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: [0xA0, 0, 0, 2, 0x47, 0x10, 0x01]),
        CommandAPDU(ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 7, count: 256)),
        CommandAPDU(cla: 0x0C, ins: 0xB1, p1: 0, p2: 0, data: [0x54, 0x02, 0x80, 0x00], expectedLength: 200),
        CommandAPDU(cla: 0x0C, ins: 0xB1, p1: 0, p2: 0, data: [UInt8](repeating: 1, count: 300), expectedLength: 256),
    ])
    func encodingRoundTrips(command: CommandAPDU) throws {
        #expect(try CommandAPDU(encoded: command.encoded()) == command)
        #expect(try CommandAPDU(encoded: command.encoded(extended: true)) == command)
    }

    @Test func parseRejectsMalformedBodies() {
        for bytes: [UInt8] in [
            [0, 0xA4, 0], [0, 0xA4, 0, 0, 5, 1, 2], [0, 0xA4, 0, 0, 0, 0, 9, 1], [0, 0xA4, 0, 0, 0, 1],
        ] {
            #expect(throws: TransportError.self) { try CommandAPDU(encoded: bytes) }
        }
    }

    @Test func authenticationCommandsAreSecretUnlessUnderSecureMessaging() {
        #expect(CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: [1], expectedLength: 40).isSecret)
        #expect(CommandAPDU(cla: 0x10, ins: 0x86, p1: 0, p2: 0, data: [1], expectedLength: 256).isSecret)
        #expect(!CommandAPDU(cla: 0x0C, ins: 0x82, p1: 0, p2: 0, data: [1]).isSecret)
        #expect(!CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 4).isSecret)
        #expect(CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: [1], isSecret: true).isSecret)
    }
}

@Suite struct ResponseAndStatusTests {
    @Test func splitsDataAndStatusWord() throws {
        let response = try ResponseAPDU(encoded: [0x46, 0x08, 0x90, 0x00])
        #expect(response.data == [0x46, 0x08])
        #expect(response.statusWord == .success)
        #expect(response.encoded == [0x46, 0x08, 0x90, 0x00])
        #expect(throws: TransportError.self) { try ResponseAPDU(encoded: [0x90]) }
    }

    @Test func statusWordFamilies() {
        #expect(StatusWord(0x6110).bytesRemaining == 16)
        #expect(StatusWord(0x6100).bytesRemaining == 256)
        #expect(StatusWord(0x6CDF).exactLength == 223)
        #expect(StatusWord(0x6C00).exactLength == 256)
        #expect(StatusWord.success.exactLength == nil && StatusWord.success.bytesRemaining == nil)
        #expect(StatusWord.endOfFileReached.isWarning && !StatusWord.endOfFileReached.isSuccess)
        #expect(StatusWord(sw1: 0x69, sw2: 0x88) == .secureMessagingDataObjectsIncorrect)
        #expect(StatusWord.fileNotFound.description == "6A82 (file not found)")
        #expect(StatusWord(0x6C80).description == "6C80 (wrong Le, exact length 128)")
        #expect(StatusWord(0x0123).description == "0123")
    }
}

@Suite struct ScriptedTransportTests {
    @Test func playsTheScript() throws {
        let transport = ScriptedTransport([
            .exchange("00 84 00 00 08", "46 08 F9 19 88 70 22 12 90 00"),
            .failure("00 B0 00 00 04", .TagLost),
        ])
        let challenge = try transport.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8))
        #expect(challenge.data == [0x46, 0x08, 0xF9, 0x19, 0x88, 0x70, 0x22, 0x12])
        #expect(throws: TransportError.TagLost) {
            try transport.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 4))
        }
        #expect(transport.isComplete)
    }

    @Test func failsOnAnUnexpectedCommandAndEverythingAfter() throws {
        let transport = ScriptedTransport([.exchange("00 A4 00 0C", "90 00"), .exchange("00 B0 00 00 04", "90 00")])
        #expect(throws: TransportError.self) { try transport.transmit(CommandAPDU(ins: 0xA4, p1: 0, p2: 0)) }
        #expect(throws: TransportError.self) { try transport.transmit(CommandAPDU(ins: 0xA4, p1: 0, p2: 0x0C)) }
        #expect(!transport.isComplete)
        #expect(transport.failures.count == 2)
        #expect(transport.failures[0].contains("expected 00 A4 00 0C, got 00 A4 00 00"))
    }

    @Test func failsWhenTheScriptIsExhaustedOrNotFinished() throws {
        let transport = ScriptedTransport([.exchange("00 A4 00 0C", "90 00"), .exchange("00 A4 00 0C", "90 00")])
        _ = try transport.transmit(CommandAPDU(ins: 0xA4, p1: 0, p2: 0x0C))
        #expect(!transport.isComplete)
        _ = try transport.transmit(CommandAPDU(ins: 0xA4, p1: 0, p2: 0x0C))
        #expect(transport.isComplete)
        #expect(throws: TransportError.self) { try transport.transmit(CommandAPDU(ins: 0xA4, p1: 0, p2: 0x0C)) }
        #expect(!transport.isComplete)
    }

    @Test func handlerStepsComputeAnswers() throws {
        let transport = ScriptedTransport([
            .respond("echo") { command throws(TransportError) in
                guard command.ins == 0x82 else { throw .Unexpected(detail: "not EXTERNAL AUTHENTICATE") }
                return ResponseAPDU(data: command.data.reversed(), statusWord: .success)
            },
            .respond("reject") { _ throws(TransportError) in throw .Unexpected(detail: "rejected") },
        ])
        #expect(try transport.transmit(CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: [1, 2])).data == [2, 1])
        #expect(throws: TransportError.self) { try transport.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0)) }
        #expect(transport.failures == ["reject: unexpected card exchange: rejected"])
    }
}

@Suite struct APDULogTests {
    @Test func logsWireBytesAndRedactsSecrets() throws {
        let script = ScriptedTransport([
            .exchange("00 84 00 00 08", "46 08 F9 19 88 70 22 12 90 00"),
            .exchange("00 82 00 00 04 01 02 03 04 28", "AA BB 90 00"),
            .exchange("00 A4 02 0C 02 01 1E", "6A 82"),
        ])
        let transport = LoggingTransport(script)
        _ = try transport.transmit(CommandAPDU(ins: 0x84, p1: 0, p2: 0, expectedLength: 8))
        _ = try transport.transmit(CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: [1, 2, 3, 4], expectedLength: 0x28))
        _ = try transport.transmit(CommandAPDU(ins: 0xA4, p1: 2, p2: 0x0C, data: [0x01, 0x1E]))
        let entries = transport.log.entries
        #expect(entries.count == 3)
        #expect(
            entries[0].outcome
                == .response(data: .clear([0x46, 0x08, 0xF9, 0x19, 0x88, 0x70, 0x22, 0x12]), statusWord: .success))
        #expect(entries[1].commandData == .redacted(count: 4))
        #expect(entries[1].outcome == .response(data: .redacted(count: 2), statusWord: .success))
        #expect(!entries[1].description.contains("01 02 03 04"))
        #expect(!entries[1].description.contains("AA BB"))
        #expect(entries[1].description.contains("<4 bytes redacted>"))
        #expect(entries[2].description.hasPrefix("> 00 A4 02 0C Lc=2 01 1E  SELECT EF.COM\n< 6A82 (file not found)"))
        #expect(entries[0].commandName == "GET CHALLENGE" && entries[1].commandName == "EXTERNAL AUTHENTICATE")
        let secure = APDULog.Entry(
            command: CommandAPDU(cla: 0x0C, ins: 0xB0, p1: 0, p2: 0, data: [0x97, 0x01, 0x04]), encodedLength: 8,
            outcome: .failure(.Timeout), duration: .zero)
        #expect(secure.commandName == "READ BINARY (SM)")
        #expect(transport.log.bytesMoved == (5 + 10) + (10 + 4) + (7 + 2))
    }

    /// The plain side under secure messaging: SELECT's and READ BINARY's data shown, any other
    /// command's data and every answer's data as a length only, files named.
    @Test func describesPlainCommandsAndAnswersWithoutTheirSecrets() {
        #expect(
            APDULog.plainDescription(of: CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0, expectedLength: 256))
                == "plain > 00 B0 81 00 Le=256  READ BINARY EF.DG1")
        #expect(
            APDULog.plainDescription(of: CommandAPDU(ins: 0xA4, p1: 2, p2: 0x0C, data: [0x01, 0x1D]))
                == "plain > 00 A4 02 0C Lc=2 01 1D  SELECT EF.SOD/EF.CardSecurity")
        let key = CommandAPDU(ins: 0x86, p1: 0, p2: 0, data: [0x7C, 0x03, 0x80, 0x01, 0xAB], expectedLength: 256)
        #expect(
            APDULog.plainDescription(of: key)
                == "plain > 00 86 00 00 Lc=5 <5 bytes redacted> Le=256  GENERAL AUTHENTICATE")
        let setKAT = CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA6, data: [0x91, 0x02, 0x04, 0x11], isSecret: false)
        #expect(APDULog.plainDescription(of: setKAT) == "plain > 00 22 41 A6 Lc=4 <4 bytes redacted>  MSE:Set KAT")
        let file = ResponseAPDU(data: Array("P<UTOERIKSSON".utf8), statusWord: .success)
        #expect(APDULog.plainDescription(of: file) == "plain < <13 bytes redacted> 9000 (success)")
        #expect(
            APDULog.plainDescription(of: ResponseAPDU(statusWord: .fileNotFound)) == "plain < 6A82 (file not found)")
    }

    @Test func logsFailures() {
        let transport = LoggingTransport(ScriptedTransport([.failure("00 B0 00 00 00", .Timeout)]))
        #expect(throws: TransportError.Timeout) {
            try transport.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, expectedLength: 256))
        }
        #expect(transport.log.entries.first?.outcome == .failed(.Timeout))
    }
}
