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

    init() throws {
        let specimen = try Specimen.generate()
        var configuration = ChipConfiguration(files: specimen.files, credentials: specimen.credentials)
        configuration.credentials.can = CardAccessNumber(Self.can)
        try configuration.offerPACE([try PACEOffer(named: "ECDH-GM-AES-128:13")])
        chip = SimulatedChip(configuration: configuration)
        csca = Data(specimen.countrySigningCertificate)
    }

    func exchange(_ apdu: Data) throws -> Data {
        Data(try chip.transmit(try CommandAPDU(encoded: [UInt8](apdu))).encoded)
    }
}
