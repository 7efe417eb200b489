/// `emrtd dump`: `emrtd read` with its files written, kept under its own name with its options for
/// the scripts that use it. It is the same read (`ReadCommand.run(_:as: .dump)`), so it takes
/// every option `read` takes.
enum DumpCommand: Command {
    static let name = "dump"
    static let summary = "read a passport on a PC/SC reader and write its files (emrtd read --out DIR)"
    static let usage = """
        usage: emrtd dump [--reader NAME] (--mrz DOCUMENTNUMBER DATEOFBIRTH DATEOFEXPIRY | --can CAN
                          | --mrz-lines LINE...) [--access auto|pace|bac] (--out DIR | DIR) [--replace] [--wait SECONDS]
                          [--timeout MS] [--debug] [any option of emrtd read]

        emrtd read --out DIR under another name: opens the chip in the reader NAME (optional when
        exactly one reader holds a card) with PACE or BAC, reads EF.CardAccess, EF.COM, EF.SOD and
        the data groups, verifies them as read does, and writes each file read, outer tag and
        length included, as DIR/CardAccess.bin, COM.bin, SOD.bin, DG1.bin ... DG16.bin, with the
        images beside them (the dump layout: emrtd verify --dir DIR, emrtd report DIR and emrtd
        read --simulator DIR read it back). Prints read's summary: holder, files read and denied
        (6982), verdicts, the APDU count, the bytes moved and the time. Dates are YYMMDD. --wait
        waits up to SECONDS for a card (default 0: it must be there); --timeout MS is the longest
        wait for one answer (default 5000). --debug writes the log of every step and APDU to
        standard error (secrets redacted). emrtd read --help describes the other options.
        \(ReadCommand.dumpRules)
        \(AccessOptions.usage)
        \(TerminalOptions.usage)
        Exit status: 0 read and written, 1 no reader, no card, access control failed (wrong MRZ or
        CAN), the read failed or a file could not be written, 2 wrong command line, 3 a --strict
        requirement not met.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        try ReadCommand.run(&arguments, as: .dump)
    }
}
