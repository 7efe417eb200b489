// The Logical Data Structure: EF.COM, DG1 to DG16, SecurityInfos, biometric records and document images.
