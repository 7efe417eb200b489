import ChipSimulator
import Foundation
import Transport

/// The chip behind the reference examples' host link: the specimen on a simulated chip that offers
/// PACE with the CAN, exchanged as raw bytes (the one thing a host's link does).
struct ReferenceSimulatedChip {
    static let can = "123456"

    let chip: SimulatedChip
    /// The test CSCA the specimen's data chains to, DER.
    let csca: Data
    let files: ChipFiles

    /// `rich`: the specimen with DG3 (refused), DG5, DG7, DG13 and DG16 as well.
    init(rich: Bool = false) throws {
        let specimen = try Specimen.generate(rich: rich)
        files = specimen.files
        var configuration = ChipConfiguration(files: specimen.files, credentials: specimen.credentials)
        configuration.credentials.can = CardAccessNumber(Self.can)
        try configuration.offerPACE([try PACEOffer(named: "ECDH-GM-AES-128:13")])
        chip = SimulatedChip(configuration: configuration)
        csca = Data(specimen.countrySigningCertificate)
    }

    func exchange(_ apdu: Data) throws -> Data {
        Data(try chip.transmit(try CommandAPDU(encoded: [UInt8](apdu))).encoded)
    }

    /// A data group exactly as the chip holds it.
    func dataGroup(_ number: Int) -> Data? {
        files.application[ChipFiles.dataGroupIdentifier(number)].map { Data($0) }
    }
}
