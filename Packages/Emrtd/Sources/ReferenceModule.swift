// The reference's Swift API is one module: a host that writes `import Emrtd` names every type and
// function its Swift column names (`CardTransport` and `TransportError` from Transport,
// `DocumentImage` and the data groups' models from LDS, `MrzFields` from MRZ, `certificateInfos`
// and `CertificateInfo` from CMS), as NIO's umbrella module re-exports NIOCore. A team that
// wants one of these packages alone still imports it alone.
@_exported import CMS
import ICAO
@_exported import LDS
@_exported import MRZ
@_exported import Transport

/// The reference's name for the file a listener and a file set name: `LDSFileKind`, whose cases
/// are the reference's (`com`, `sod`, `dg1` … `dg16`) plus `dg6`, `cardAccess` and
/// `cardSecurity`, which a read may name as well.
public typealias ElementaryFileId = LDSFileKind

/// The reference model's name for how the chip was opened (`ICAO.AccessControlProtocol`: BAC or
/// PACE), so that `import Emrtd` alone names it.
public typealias AccessControlProtocol = ICAO.AccessControlProtocol

/// The protocol behind the data verdict (`CMS.DataProtocol`). Foundation has a protocol of that
/// name, so a file that imports both writes `Emrtd.DataProtocol`.
public typealias DataProtocol = CMS.DataProtocol
