/// Application identifiers (ISO/IEC 7816-4 AIDs) a reader selects.
public enum ApplicationIdentifier {
    /// The eMRTD application, LDS1 (ICAO 9303-10 §3.10.1): A0 00 00 02 47 10 01.
    public static let emrtd: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]
}
