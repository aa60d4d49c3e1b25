// GENERATED FILE: produced by a code generator. Do not edit by hand.
export const API_VERSION = 3;
