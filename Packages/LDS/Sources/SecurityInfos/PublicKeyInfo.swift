import ICAO

/// DG15's Active Authentication key and the Chip Authentication keys of DG14 and EF.CardSecurity:
/// the reader's one public-key model, `ICAO.SubjectPublicKeyInfo` (certificates use it too), under
/// the name this package has always given it.
public typealias PublicKeyInfo = SubjectPublicKeyInfo
