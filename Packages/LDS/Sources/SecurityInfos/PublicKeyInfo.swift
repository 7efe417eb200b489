/// DG15's Active Authentication key and the Chip Authentication keys of DG14 and EF.CardSecurity are
/// the reader's one public-key model, `ICAO.PublicKeyInfo` (certificates use it too): re-exported so
/// that a client of the data groups (and `import Emrtd`) names it without importing ICAO.
@_exported import struct ICAO.PublicKeyInfo
