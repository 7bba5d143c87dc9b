// RUN: nplus1gen %s --validate --global 4096 --arg in=range:-5:260
// RUN: nplus1gen %s --validate --global 4096 --arg in=range:-5:260 --strategy tile
// EXPECT: match all-leaves
/*
 * nested_ifs_200_levels.cl - regression (issue 16, item 5): 200 nested ifs,
 * each with braces (written without indentation to stay readable).
 *
 * Each split level of a leaf added a brace of its own before the "{" of its
 * branch, so 200 levels, 63 of them split, nested 263 deep in the leaves:
 * past clang's 256 bracket-nesting levels (exit 3; 190 levels passed). A
 * leaf now replaces an if by its branch alone and nests no deeper than the
 * input. The first 63 levels are split (64 leaves); the deeper ones stay in
 * the last leaf as written.
 */
__kernel void deep(__global const int *in, __global int *out)
{
const int i = get_global_id(0);
const int v = in[i];
if (v > 0) {
if (v > 1) {
if (v > 2) {
if (v > 3) {
if (v > 4) {
if (v > 5) {
if (v > 6) {
if (v > 7) {
if (v > 8) {
if (v > 9) {
if (v > 10) {
if (v > 11) {
if (v > 12) {
if (v > 13) {
if (v > 14) {
if (v > 15) {
if (v > 16) {
if (v > 17) {
if (v > 18) {
if (v > 19) {
if (v > 20) {
if (v > 21) {
if (v > 22) {
if (v > 23) {
if (v > 24) {
if (v > 25) {
if (v > 26) {
if (v > 27) {
if (v > 28) {
if (v > 29) {
if (v > 30) {
if (v > 31) {
if (v > 32) {
if (v > 33) {
if (v > 34) {
if (v > 35) {
if (v > 36) {
if (v > 37) {
if (v > 38) {
if (v > 39) {
if (v > 40) {
if (v > 41) {
if (v > 42) {
if (v > 43) {
if (v > 44) {
if (v > 45) {
if (v > 46) {
if (v > 47) {
if (v > 48) {
if (v > 49) {
if (v > 50) {
if (v > 51) {
if (v > 52) {
if (v > 53) {
if (v > 54) {
if (v > 55) {
if (v > 56) {
if (v > 57) {
if (v > 58) {
if (v > 59) {
if (v > 60) {
if (v > 61) {
if (v > 62) {
if (v > 63) {
if (v > 64) {
if (v > 65) {
if (v > 66) {
if (v > 67) {
if (v > 68) {
if (v > 69) {
if (v > 70) {
if (v > 71) {
if (v > 72) {
if (v > 73) {
if (v > 74) {
if (v > 75) {
if (v > 76) {
if (v > 77) {
if (v > 78) {
if (v > 79) {
if (v > 80) {
if (v > 81) {
if (v > 82) {
if (v > 83) {
if (v > 84) {
if (v > 85) {
if (v > 86) {
if (v > 87) {
if (v > 88) {
if (v > 89) {
if (v > 90) {
if (v > 91) {
if (v > 92) {
if (v > 93) {
if (v > 94) {
if (v > 95) {
if (v > 96) {
if (v > 97) {
if (v > 98) {
if (v > 99) {
if (v > 100) {
if (v > 101) {
if (v > 102) {
if (v > 103) {
if (v > 104) {
if (v > 105) {
if (v > 106) {
if (v > 107) {
if (v > 108) {
if (v > 109) {
if (v > 110) {
if (v > 111) {
if (v > 112) {
if (v > 113) {
if (v > 114) {
if (v > 115) {
if (v > 116) {
if (v > 117) {
if (v > 118) {
if (v > 119) {
if (v > 120) {
if (v > 121) {
if (v > 122) {
if (v > 123) {
if (v > 124) {
if (v > 125) {
if (v > 126) {
if (v > 127) {
if (v > 128) {
if (v > 129) {
if (v > 130) {
if (v > 131) {
if (v > 132) {
if (v > 133) {
if (v > 134) {
if (v > 135) {
if (v > 136) {
if (v > 137) {
if (v > 138) {
if (v > 139) {
if (v > 140) {
if (v > 141) {
if (v > 142) {
if (v > 143) {
if (v > 144) {
if (v > 145) {
if (v > 146) {
if (v > 147) {
if (v > 148) {
if (v > 149) {
if (v > 150) {
if (v > 151) {
if (v > 152) {
if (v > 153) {
if (v > 154) {
if (v > 155) {
if (v > 156) {
if (v > 157) {
if (v > 158) {
if (v > 159) {
if (v > 160) {
if (v > 161) {
if (v > 162) {
if (v > 163) {
if (v > 164) {
if (v > 165) {
if (v > 166) {
if (v > 167) {
if (v > 168) {
if (v > 169) {
if (v > 170) {
if (v > 171) {
if (v > 172) {
if (v > 173) {
if (v > 174) {
if (v > 175) {
if (v > 176) {
if (v > 177) {
if (v > 178) {
if (v > 179) {
if (v > 180) {
if (v > 181) {
if (v > 182) {
if (v > 183) {
if (v > 184) {
if (v > 185) {
if (v > 186) {
if (v > 187) {
if (v > 188) {
if (v > 189) {
if (v > 190) {
if (v > 191) {
if (v > 192) {
if (v > 193) {
if (v > 194) {
if (v > 195) {
if (v > 196) {
if (v > 197) {
if (v > 198) {
if (v > 199) {
out[i] = 200;
} else { out[i] = 1394; }
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
} else { out[i] = 1044; }
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
} else { out[i] = 694; }
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
} else { out[i] = 344; }
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
