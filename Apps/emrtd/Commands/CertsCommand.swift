import CMS
import JSON

/// `emrtd certs`: describes the certificates in a file.
enum CertsCommand: Command {
    static let name = "certs"
    static let printsOnlyJSON = true
    static let summary = "print the certificates of a PEM bundle, DER file, master list or EF.SOD as JSON"
    static let usage = """
        usage: emrtd certs FILE

        Prints a JSON array with one CertificateInfo per certificate: a PEM bundle's or DER
        file's certificates, a master list's CSCA certificates (not verified: see
        `emrtd masterlist`), or the document signer certificates an EF.SOD carries.
        Exit status: 0 printed, 1 unreadable file, 2 wrong command line.
        """

    static func run(_ arguments: inout ArgumentReader) throws -> Int32 {
        guard let file = try arguments.positionals(atMost: 1).first else { throw UsageError("give one FILE") }
        let infos: [CertificateInfo]
        do {
            infos = try CertificateFile(bytes: readCertificateFile(file)).certificates.map(CertificateInfo.init)
        } catch let error as CMSError {
            throw CommandFailure(
                "\(file) holds no readable certificate (PEM, DER, master list or EF.SOD): \(error.reason)")
        }
        print(JSONValue.array(infos).serialized(pretty: true))
        return 0
    }
}
