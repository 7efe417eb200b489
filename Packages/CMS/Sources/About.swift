// Is the data genuine: X.509, CMS SignedData, EF.SOD, master lists, the trust store and Passive Authentication.
