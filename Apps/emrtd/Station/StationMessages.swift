/// Every text the station's page shows, in English: a translation is this one file. The page
/// fills each element whose `data-text` names a key, and builds its messages from the rest.
enum StationMessages {
    static let english = #"""
        {
          "title": "emrtd reading station",
          "waitingHeading": "Put the document on the reader",
          "cardPresent": "A document is on the reader.",
          "cardAbsent": "No document on the reader yet.",
          "readerAny": "Reader: the one holding a document",
          "readerNamed": "Reader: ",
          "mrzLabel": "MRZ lines (type, paste or scan them), or: document number, date of birth, date of expiry (YYMMDD), separated by spaces",
          "canLabel": "or the CAN (6 digits on the document's front)",
          "start": "Read the document",
          "checkOk": "The check digits match.",
          "checkCorrected": "OCR confusions put right: ",
          "checkAmbiguous": "If the zone was scanned, look again at the characters that look alike (O/0, I/1, B/8, S/5, Z/2, G/6) in ",
          "fieldNames": {"documentNumber": "the document number", "optionalData": "the optional data"},
          "readingHeading": "Reading the document",
          "keepStill": "Keep the document still on the reader.",
          "cancel": "Cancel",
          "stepAccess": "Opening the chip (PACE or BAC)",
          "stepFile": "Reading ",
          "stepVerify": "Checking the signature",
          "fileNames": {"com": "the list of files (EF.COM)", "sod": "the security object (EF.SOD)", "dg1": "the MRZ data (DG1)", "dg2": "the face (DG2)", "dg3": "the fingerprints (DG3)", "dg4": "the irises (DG4)", "dg5": "the portrait (DG5)", "dg7": "the signature (DG7)", "dg11": "the personal details (DG11)", "dg12": "the document details (DG12)", "dg13": "the optional details (DG13)", "dg14": "the chip's security data (DG14)", "dg15": "the Active Authentication key (DG15)", "dg16": "the persons to notify (DG16)", "cardAccess": "EF.CardAccess", "cardSecurity": "EF.CardSecurity"},
          "accepted": "Accepted",
          "notAccepted": "Not accepted",
          "name": "Name",
          "nationality": "Nationality",
          "dateOfBirth": "Date of birth",
          "dateOfExpiry": "Date of expiry",
          "documentNumber": "Document number",
          "issuingState": "Issuing state",
          "sex": "Sex",
          "dataVerdict": "Data",
          "chipVerdict": "Chip",
          "warnings": "Warnings",
          "noWarnings": "None.",
          "noFace": "No face image the browser can show",
          "print": "Print",
          "next": "Next document",
          "saved": "Dump written to ",
          "errors": {
            "busy": "Another window is reading a document. Wait until it has finished, then start again.",
            "noCard": "No document on the reader. Put the document on the reader, then start again.",
            "cardRemoved": "The document left the reader during the read. Keep the document still on the reader and start again.",
            "accessDenied": "The chip did not accept the MRZ or CAN. Check the document number and the dates (or the CAN) and start again.",
            "cancelled": "The read was cancelled.",
            "readerUnavailable": "The card reader cannot be reached. Check that it is plugged in, then start again.",
            "chipFailed": "The chip could not prove itself. Start again; if it happens again, the document needs a closer look.",
            "badKey": "The MRZ or CAN is not complete. Check what you typed.",
            "readFailed": "The document could not be read. Keep it still on the reader and start again.",
            "badMessage": "The page and the station do not understand each other. Reload the page.",
            "disconnected": "The connection to the station is lost; trying again.",
            "denied": "This page needs the station's token in its address (#token=…)."
          }
        }
        """#
}
