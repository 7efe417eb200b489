package dev.emrtd.tests

import dev.emrtd.AccessControlProtocol
import dev.emrtd.ChipProtocol
import dev.emrtd.ChipStatus
import dev.emrtd.DataProtocol
import dev.emrtd.DataStatus
import dev.emrtd.ElementaryFileId
import dev.emrtd.HashStatus
import dev.emrtd.ImageFormat
import dev.emrtd.JsonEnum
import dev.emrtd.PaceMapping
import dev.emrtd.ReadErrorKind
import dev.emrtd.TravelDocumentType
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/** Every enum case of the reference's table, in Kotlin and in JSON, and no other. */
class EnumTests {
    private fun check(cases: Array<out JsonEnum>, expected: String) {
        val pairs = expected.trim().split(Regex("\\s+")).map { it.split('=').let { (kotlin, json) -> kotlin to json } }
        assertEquals(pairs, cases.map { it.name to it.jsonName })
    }

    @Test
    fun everyCaseOfTheReference() {
        check(AccessControlProtocol.values(), "BAC=bac PACE=pace")
        check(PaceMapping.values(), "GENERIC_MAPPING=genericMapping INTEGRATED_MAPPING=integratedMapping CHIP_AUTHENTICATION_MAPPING=chipAuthenticationMapping")
        check(DataStatus.values(), "AUTHENTICATED=authenticated DENIED=denied AUTHORITY_CERTIFICATES_NOT_PROVIDED=authorityCertificatesNotProvided")
        check(DataProtocol.values(), "PASSIVE_AUTHENTICATION=passiveAuthentication")
        check(HashStatus.values(), "VALID=valid INVALID=invalid NOT_READ=notRead")
        check(ChipStatus.values(), "AUTHENTICATED=authenticated DENIED=denied NOT_SUPPORTED=notSupported")
        check(ChipProtocol.values(), "PACE_CHIP_AUTHENTICATION_MAPPING=paceChipAuthenticationMapping CHIP_AUTHENTICATION=chipAuthentication ACTIVE_AUTHENTICATION=activeAuthentication")
        check(ImageFormat.values(), "JPEG=jpeg JPEG2000=jpeg2000 PNG=png WSQ=wsq UNKNOWN=unknown")
        check(TravelDocumentType.values(), "TD1=td1 TD2=td2 TD3=td3")
        check(
            ElementaryFileId.values(),
            "COM=com SOD=sod DG1=dg1 DG2=dg2 DG3=dg3 DG4=dg4 DG5=dg5 DG7=dg7 DG8=dg8 DG9=dg9 DG10=dg10 DG11=dg11 DG12=dg12 DG13=dg13 DG14=dg14 DG15=dg15 DG16=dg16"
        )
        check(ReadErrorKind.values(), "READING_DATA_GROUPS=readingDataGroups PARSE_MASTER_FILE=parseMasterFile UNKNOWN=unknown")
    }
}
