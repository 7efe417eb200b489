package dev.emrtd.reference

// The reference's Kotlin column, every type, property and function with its exact type: this file
// only has to compile (Tools/test-jvm.sh compiles it with the tests). A renamed property, a
// changed type or nullability, a missing case or function fails the build.
import dev.emrtd.*

@Suppress("UNUSED_VARIABLE")
fun readerAndFunctions(transport: CardTransport, listener: ReadListener, bytes: ByteArray) {
    val config: ReaderConfig = ReaderConfig(useBuiltInAuthorityCertificates = true, authorityCertificates = listOf(bytes), timeoutMs = 5000u, debug = false)
    val useBuiltIn: Boolean = config.useBuiltInAuthorityCertificates
    val certificates: List<ByteArray> = config.authorityCertificates
    val timeout: UInt = config.timeoutMs
    val debug: Boolean = config.debug
    val reader: AutoCloseable = EmrtdReader(config)
    val emrtdReader: EmrtdReader = EmrtdReader(ReaderConfig())
    val document: TravelDocument = emrtdReader.read(transport, AccessKey.Can("123456"), null, null)
    val again: TravelDocument = emrtdReader.read(transport, AccessKey.Mrz("L898902C3", "740812", "120415"), ByteArray(8), listener)
    emrtdReader.cancel()
    emrtdReader.close()
    val answer: ByteArray = transport.transceive(bytes)
    val extended: Boolean = transport.supportsExtendedLength()
    listener.onAccessEstablishmentStarted()
    listener.onElementaryFilesReadingProgressUpdated(ElementaryFileId.DG2, 40)
    listener.onDataAuthenticationStarted()
    val mrz: AccessKey.Mrz = AccessKey.Mrz(documentNumber = "L898902C3", dateOfBirth = "740812", dateOfExpiry = "120415")
    val number: String = mrz.documentNumber
    val birth: String = mrz.dateOfBirth
    val expiry: String = mrz.dateOfExpiry
    val can: AccessKey.Can = AccessKey.Can(value = "123456")
    val canValue: String = can.value
    val zone: MachineReadableZone = parseMrz(lines = listOf("a", "b"))
    val key: AccessKey = accessKeyFromMrz(mrz = zone)
    val documentJson: String = travelDocumentToJson(document = document)
    val zoneJson: String = machineReadableZoneToJson(mrz = zone)
    val infos: List<CertificateInfo> = certificateInfos(pemOrDer = bytes)
    val error: ReadException = ReadException.Cancelled(DebugInfo())
    val message: String = readErrorMessage(error = error)
    val errorJson: String = readErrorToJson(error = error)
    val outcome: ReadOutcome = readOutcome(document = document, error = null, durationMs = 5uL)
    val outcome2: ReadOutcome = readOutcome(null, error, 5uL)
    val outcomeJson: String = readOutcomeToJson(outcome = outcome)
}

@Suppress("UNUSED_VARIABLE")
fun errors(error: ReadException, transportError: TransportException, debugInfo: DebugInfo) {
    val thrown: Exception = error
    val transportThrown: Exception = transportError
    when (error) {
        is ReadException.InvalidArgument -> { val reason: String = error.reason }
        is ReadException.AccessControl -> { val reason: String = error.reason; val info: DebugInfo = error.debugInfo }
        is ReadException.ChipAuthentication -> { val reason: String = error.reason; val info: DebugInfo = error.debugInfo }
        is ReadException.NotConnected -> { val reason: String = error.reason; val info: DebugInfo = error.debugInfo }
        is ReadException.Read -> { val kind: ReadErrorKind = error.kind; val reason: String = error.reason; val info: DebugInfo = error.debugInfo }
        is ReadException.Cancelled -> { val info: DebugInfo = error.debugInfo }
        is ReadException.NfcUnavailable -> { val reason: String = error.reason }
    }
    val made: List<ReadException> = listOf(
        ReadException.InvalidArgument(reason = "r"), ReadException.AccessControl(reason = "r", debugInfo = debugInfo),
        ReadException.ChipAuthentication(reason = "r", debugInfo = debugInfo), ReadException.NotConnected(reason = "r", debugInfo = debugInfo),
        ReadException.Read(kind = ReadErrorKind.UNKNOWN, reason = "r", debugInfo = debugInfo), ReadException.Cancelled(debugInfo = debugInfo),
        ReadException.NfcUnavailable(reason = "r")
    )
    when (transportError) {
        is TransportException.TagLost -> Unit
        is TransportException.Timeout -> Unit
        is TransportException.Cancelled -> Unit
        is TransportException.Io -> { val detail: String = transportError.detail }
        is TransportException.Unexpected -> { val detail: String = transportError.detail }
    }
    val transportErrors: List<TransportException> = listOf(
        TransportException.TagLost(), TransportException.Timeout(), TransportException.Cancelled(),
        TransportException.Io(detail = "d"), TransportException.Unexpected(detail = "d")
    )
    val events: List<DebugEvent> = debugInfo.events
    val event: DebugEvent = events[0]
    val millis: ULong = event.timestampMillis
    val text: String = event.message
}

@Suppress("UNUSED_VARIABLE")
fun document(d: TravelDocument) {
    val master: LdsMasterFile = d.ldsMasterFile
    val version: String = d.ldsVersion
    val unicode: String? = d.unicodeVersion
    val access: AccessControlProtocol = d.accessControlProtocolUsed
    val mapping: PaceMapping? = d.paceMapping
    val status: AuthenticationStatus = d.authenticationStatus
    val mrzInfo: MachineReadableZoneInformation = d.machineReadableZoneInformation
    val face: EncodedIdentificationFeaturesFace = d.encodedIdentificationFeaturesFace
    val finger: EncodedIdentificationFeatures? = d.encodedIdentificationFeaturesFinger
    val iris: EncodedIdentificationFeatures? = d.encodedIdentificationFeaturesIris
    val portrait: DisplayedPortrait? = d.displayedPortrait
    val signature: DisplayedSignatureOrUsualMark? = d.displayedSignatureOrUsualMark
    val personal: AdditionalPersonalDetails? = d.additionalPersonalDetails
    val documentDetails: AdditionalDocumentDetails? = d.additionalDocumentDetails
    val optional: OptionalDetails? = d.optionalDetails
    val security: SecurityOptions? = d.securityOptions
    val aaKey: PublicKeyInfo? = d.activeAuthenticationPublicKeyInfo
    val persons: PersonsToNotify? = d.personsToNotify
    val warnings: List<String> = d.warnings
    val debugInfo: DebugInfo = d.debugInfo

    val app: Lds1EmrtdApplication = master.lds1EmrtdApplication
    val cardAccess: ByteArray? = master.cardAccess
    val cardSecurity: ByteArray? = master.cardSecurity
    val mandatory: List<ElementaryFile> = listOf(app.com, app.sod, app.dg1, app.dg2)
    val optionalFiles: List<ElementaryFile?> = listOf(
        app.dg3, app.dg4, app.dg5, app.dg7, app.dg8, app.dg9, app.dg10, app.dg11, app.dg12, app.dg13, app.dg14, app.dg15, app.dg16
    )
    val fileId: ElementaryFileId = app.com.id
    val fileBytes: ByteArray? = app.com.bytes

    val image: DocumentImage? = face.faceImage
    val records: List<BiometricRecord> = face.records
    val fingerRecords: List<BiometricRecord>? = finger?.records
    val format: ImageFormat = image!!.format
    val size: ImageSize = image.size
    val width: UInt = size.width
    val height: UInt = size.height
    val imageBytes: ByteArray = image.bytes
    val png: ByteArray? = image.png
    val record: BiometricRecord = records[0]
    val types: List<UInt?> = listOf(record.biometricType, record.biometricSubtype, record.formatOwner, record.formatType)
    val images: List<DocumentImage> = record.images
    val data: ByteArray = record.data
    val portraitImage: DocumentImage? = portrait?.displayedPortraitImage
    val signatureImage: DocumentImage? = signature?.displayedSignatureOrUsualMarkImage

    val p = personal!!
    val name: NameOfHolder? = p.nameOfHolder
    val names: List<String?> = listOf(name?.primaryIdentifier, name?.secondaryIdentifier)
    val otherNames: List<String> = p.otherNames
    val texts: List<String?> = listOf(p.personalNumber, p.fullDateOfBirth, p.telephone, p.profession, p.title, p.personalSummary, p.custodyInformation)
    val lists: List<List<String>?> = listOf(p.placeOfBirth, p.address, p.otherValidTravelDocumentNumbers)
    val proof: DocumentImage? = p.proofOfCitizenship

    val dd = documentDetails!!
    val ddTexts: List<String?> = listOf(
        dd.issuingAuthority, dd.dateOfIssue, dd.endorsementsOrObservations, dd.taxOrExitRequirements, dd.personalizationTime,
        dd.personalizationDeviceSerialNumber
    )
    val others: List<String>? = dd.otherPersonDetails
    val sides: List<DocumentImage?> = listOf(dd.imageOfFront, dd.imageOfRear)

    val content: ByteArray = optional!!.content
    val fields: List<TagValue> = optional.fields
    val tag: UInt = fields[0].tag
    val value: ByteArray = fields[0].value

    val infos: List<SecurityInfo> = security!!.securityInfos
    val protocol: String = infos[0].protocol
    val protocolName: String = infos[0].name
    val numbers: List<Long?> = listOf(infos[0].version, infos[0].keyId, infos[0].parameterId)

    val algorithm: String = aaKey!!.algorithm
    val keySize: UInt = aaKey.keySize
    val curve: String? = aaKey.curve
    val der: ByteArray = aaKey.der

    val people: List<PersonToNotify> = persons!!.persons
    val person: List<String?> = listOf(people[0].dateRecorded, people[0].name, people[0].telephone, people[0].address)
}

@Suppress("UNUSED_VARIABLE")
fun authentication(s: AuthenticationStatus) {
    val data: DataAuthenticationStatus = s.data
    val chip: ChipAuthenticationStatus = s.chip
    val status: DataStatus = data.status
    val protocol: DataProtocol = data.protocol
    val flags: List<Boolean> = listOf(data.sodSignatureValid, data.certificateChainValid, data.dataGroupHashesValid)
    val hashes: List<DataGroupHash> = data.dataGroupHashes
    val group: UByte = hashes[0].dataGroupNumber
    val hashStatus: HashStatus = hashes[0].status
    val algorithms: List<String?> = listOf(data.hashAlgorithm, data.signatureAlgorithm, data.issuingCountry)
    val signer: CertificateInfo? = data.documentSignerCertificate
    val csca: CertificateInfo? = data.countrySigningCertificate
    val errors: List<String> = data.errors
    val chipStatus: ChipStatus = chip.status
    val chipProtocol: ChipProtocol? = chip.protocol
    val aa: ChipStatus? = chip.activeAuthentication
    val response: ByteArray? = chip.activeAuthenticationResponse
    val c = signer!!
    val texts: List<String> = listOf(c.subject, c.issuer, c.serialNumber, c.notBefore, c.notAfter, c.signatureAlgorithm, c.publicKeyAlgorithm, c.sha256Fingerprint)
    val optionalTexts: List<String?> = listOf(c.country, c.organization, c.commonName, c.subjectKeyIdentifier, c.authorityKeyIdentifier)
    val keySize: UInt = c.publicKeySize
    val der: ByteArray = c.der
}

@Suppress("UNUSED_VARIABLE")
fun zone(info: MachineReadableZoneInformation, outcome: ReadOutcome) {
    val zone: MachineReadableZone = info.machineReadableZone
    val f: MrzFields = info.fields
    val texts: List<String> = listOf(f.documentCode, f.issuingState, f.documentNumber, f.nationality, f.dateOfBirth, f.sex, f.dateOfExpiry)
    val optionalTexts: List<String?> = listOf(f.primaryIdentifier, f.secondaryIdentifier, f.optionalData)
    val valid: Boolean = f.checkDigitsValid
    val lines: List<String> = zone.lines
    val type: TravelDocumentType = zone.travelDocumentType
    val td1: Td1MachineReadableZone = zone.td1!!
    val td2: Td2MachineReadableZone = zone.td2!!
    val td3: Td3MachineReadableZone = zone.td3!!
    val td1Elements: List<Element> = listOf(td1.documentCode, td1.issuingStateOrOrganization, td1.nationality, td1.sex)
    val td1Number: ElementWithCheckDigit = td1.documentNumber
    val td1Dates: List<DateElementWithCheckDigit> = listOf(td1.dateOfBirth, td1.dateOfExpiry)
    val td1Name: NameElement = td1.name
    val td1Optional: List<Element> = td1.optionalData
    val td1Composite: CheckDigit = td1.compositeCheckDigit
    val td2Elements: List<Element> = listOf(td2.documentCode, td2.issuingStateOrOrganization, td2.nationality, td2.sex)
    val td2Number: ElementWithCheckDigit = td2.documentNumber
    val td2Dates: List<DateElementWithCheckDigit> = listOf(td2.dateOfBirth, td2.dateOfExpiry)
    val td2Name: NameElement = td2.name
    val td2Optional: Element? = td2.optionalData
    val td2Composite: CheckDigit? = td2.compositeCheckDigit
    val td3Elements: List<Element> = listOf(td3.documentCode, td3.issuingStateOrOrganization, td3.nationality, td3.sex)
    val td3Numbers: List<ElementWithCheckDigit> = listOf(td3.passportNumber, td3.personalNumberOrOtherOptionalData)
    val td3Dates: List<DateElementWithCheckDigit> = listOf(td3.dateOfBirth, td3.dateOfExpiry)
    val td3Name: NameElement = td3.name
    val td3Composite: CheckDigit? = td3.compositeCheckDigit
    val element: Element = td3.documentCode
    val elementTexts: List<String> = listOf(element.value, element.raw)
    val positions: List<StringPosition> = element.positions
    val position: List<UInt> = listOf(positions[0].lineIndex, positions[0].startIndex, positions[0].endIndex)
    val withDigit: ElementWithCheckDigit = td3.passportNumber
    val withDigitTexts: List<String> = listOf(withDigit.value, withDigit.raw)
    val withDigitPositions: List<StringPosition> = withDigit.positions
    val digit: CheckDigit = withDigit.checkDigit
    val digitValid: Boolean = digit.isValid
    val digitValue: String = digit.value
    val date: DateElementWithCheckDigit = td3.dateOfBirth
    val mrzDate: MrzDate = date.date
    val parts: List<UInt?> = listOf(mrzDate.year, mrzDate.month, mrzDate.day)
    val dateTexts: List<String> = listOf(date.value, date.raw)
    val datePositions: List<StringPosition> = date.positions
    val dateDigit: CheckDigit = date.checkDigit
    val names: List<Element?> = listOf(td3Name.primaryIdentifier, td3Name.secondaryIdentifier)

    val status: String = outcome.resultStatus
    val error: String? = outcome.resultError
    val access: AccessControlProtocol? = outcome.accessControlProtocol
    val mapping: PaceMapping? = outcome.paceMapping
    val chipStatus: ChipStatus? = outcome.chipAuthenticationStatus
    val chipProtocol: ChipProtocol? = outcome.chipAuthenticationProtocol
    val dataStatus: DataStatus? = outcome.dataAuthenticationStatus
    val state: String? = outcome.mrzIssuingState
    val code: String? = outcome.mrzDocumentCode
    val groups: List<ElementaryFileId> = outcome.dataGroups
    val duration: ULong = outcome.durationMs
}
