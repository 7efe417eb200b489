/// Does a CSCA's country (its subject's two-letter `C`) belong to the document's issuing state
/// (DG1's three-letter code)? A CSCA of one state vouching for another state's document is a
/// misissued or misused key, so Passive Authentication denies it.
///
/// The table is ISO 3166-1 (alpha-3 → alpha-2), plus the ICAO 9303-3 codes that are not ISO's,
/// each one a documented exception:
/// - `D` (Germany's one-letter code) → `DE`;
/// - `GBD`, `GBN`, `GBO`, `GBP`, `GBS` (British territories and nationals) → `GB`;
/// - `UNO`, `UNA`, `UNK` (United Nations documents) → `UN`, or `ZZ` (the UN CSCA of 2012 used it);
/// - `EUE` (European Union laissez-passer) → `EU`;
/// - `RKS` (Kosovo) → `XK` or `KS` (both are used in CSCA subjects);
/// - `UTO` (Utopia, ICAO 9303's specimen state) → `UT`.
/// An issuing state outside the table is not checked (nil): no claim is made either way.
public enum IssuingStateCountry {
    static let exceptions: [String: Set<String>] = [
        "D": ["DE"], "GBD": ["GB"], "GBN": ["GB"], "GBO": ["GB"], "GBP": ["GB"], "GBS": ["GB"],
        "UNO": ["UN", "ZZ"], "UNA": ["UN", "ZZ"], "UNK": ["UN", "ZZ"], "EUE": ["EU"], "RKS": ["XK", "KS"],
        "UTO": ["UT"],
    ]

    /// ISO 3166-1, alpha-3 then alpha-2, space-separated pairs.
    static let iso3166 = """
        AFG AF ALA AX ALB AL DZA DZ ASM AS AND AD AGO AO AIA AI ATA AQ ATG AG ARG AR ARM AM ABW AW AUS AU AUT AT \
        AZE AZ BHS BS BHR BH BGD BD BRB BB BLR BY BEL BE BLZ BZ BEN BJ BMU BM BTN BT BOL BO BES BQ BIH BA BWA BW \
        BVT BV BRA BR IOT IO BRN BN BGR BG BFA BF BDI BI CPV CV KHM KH CMR CM CAN CA CYM KY CAF CF TCD TD CHL CL \
        CHN CN CXR CX CCK CC COL CO COM KM COG CG COD CD COK CK CRI CR CIV CI HRV HR CUB CU CUW CW CYP CY CZE CZ \
        DNK DK DJI DJ DMA DM DOM DO ECU EC EGY EG SLV SV GNQ GQ ERI ER EST EE SWZ SZ ETH ET FLK FK FRO FO FJI FJ \
        FIN FI FRA FR GUF GF PYF PF ATF TF GAB GA GMB GM GEO GE DEU DE GHA GH GIB GI GRC GR GRL GL GRD GD GLP GP \
        GUM GU GTM GT GGY GG GIN GN GNB GW GUY GY HTI HT HMD HM VAT VA HND HN HKG HK HUN HU ISL IS IND IN IDN ID \
        IRN IR IRQ IQ IRL IE IMN IM ISR IL ITA IT JAM JM JPN JP JEY JE JOR JO KAZ KZ KEN KE KIR KI PRK KP KOR KR \
        KWT KW KGZ KG LAO LA LVA LV LBN LB LSO LS LBR LR LBY LY LIE LI LTU LT LUX LU MAC MO MDG MG MWI MW MYS MY \
        MDV MV MLI ML MLT MT MHL MH MTQ MQ MRT MR MUS MU MYT YT MEX MX FSM FM MDA MD MCO MC MNG MN MNE ME MSR MS \
        MAR MA MOZ MZ MMR MM NAM NA NRU NR NPL NP NLD NL NCL NC NZL NZ NIC NI NER NE NGA NG NIU NU NFK NF MKD MK \
        MNP MP NOR NO OMN OM PAK PK PLW PW PSE PS PAN PA PNG PG PRY PY PER PE PHL PH PCN PN POL PL PRT PT PRI PR \
        QAT QA REU RE ROU RO RUS RU RWA RW BLM BL SHN SH KNA KN LCA LC MAF MF SPM PM VCT VC WSM WS SMR SM STP ST \
        SAU SA SEN SN SRB RS SYC SC SLE SL SGP SG SXM SX SVK SK SVN SI SLB SB SOM SO ZAF ZA SGS GS SSD SS ESP ES \
        LKA LK SDN SD SUR SR SJM SJ SWE SE CHE CH SYR SY TWN TW TJK TJ TZA TZ THA TH TLS TL TGO TG TKL TK TON TO \
        TTO TT TUN TN TUR TR TKM TM TCA TC TUV TV UGA UG UKR UA ARE AE GBR GB USA US UMI UM URY UY UZB UZ VUT VU \
        VEN VE VNM VN VGB VG VIR VI WLF WF ESH EH YEM YE ZMB ZM ZWE ZW
        """

    static let table: [String: Set<String>] = {
        let words = iso3166.split(separator: " ").map(String.init)
        var table = exceptions
        for index in stride(from: 0, to: words.count - 1, by: 2) {
            table[words[index], default: []].insert(words[index + 1])
        }
        return table
    }()

    /// Whether `cscaCountry` may sign for `issuingState` (MRZ filler `<` ignored); nil when the
    /// issuing state is not in the table.
    public static func matches(cscaCountry: String, issuingState: String) -> Bool? {
        let state = String(issuingState.filter { $0 != "<" }).uppercased()
        guard let countries = table[state] else { return nil }
        return countries.contains(cscaCountry.uppercased())
    }
}
