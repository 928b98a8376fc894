// The f32 fma emulation of p2g_ffma (translator/emit/f32_prelude.cpp), the same steps and bounds in C++ on the host's
// IEEE floats, against std::fma: every sample the guard accepts must give fmaf's bits. Random bit patterns and
// structured near-cancellations (c close to -a*b, c a power-of-two scale of a*b).
// usage: fma_emulation [SAMPLES] (default 20,000,000); exit 1 on any difference or when the guard accepts nothing.
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
static uint32_t B(float f){uint32_t u;memcpy(&u,&f,4);return u;}
static float F(uint32_t u){float f;memcpy(&f,&u,4);return f;}
// round-to-odd sum via TwoSum
static float oddsum(float a, float b){
  float s=a+b; float bb=s-a; float e=(a-(s-bb))+(b-bb);
  uint32_t w=B(s);
  if(e==0.0f || (w&0x7F800000u)==0x7F800000u || (w&1u)) return s;
  return F(((B(e)^w)>>31)==0 ? (w|1u) : (w-1u));
}
static void split(float a, float& hi, float& lo){ float t=4097.0f*a; hi=t-(t-a); lo=a-hi; }
// returns true and z when the fast path applies
static bool fastfma(float a,float b,float c,float& z){
  uint32_t ua=B(a)&0x7FFFFFFF, ub=B(b)&0x7FFFFFFF, uc=B(c)&0x7FFFFFFF;
  // operands: normal, |a|,|b| in [2^-60, 2^60]; c zero or in [2^-100, 2^120]
  if(ua<0x21800000u||ua>0x5D800000u||ub<0x21800000u||ub>0x5D800000u) return false;
  if(uc!=0 && (uc<0x0D800000u||uc>0x7B800000u)) return false;
  float uh=a*b;
  uint32_t uuh=B(uh)&0x7FFFFFFF;
  if(uuh<0x1A800000u) return false; // |ab| < 2^-74
  float ah,al,bh,bl; split(a,ah,al); split(b,bh,bl);
  float ul=((ah*bh-uh)+ah*bl+al*bh)+al*bl;
  float th=c+uh; float bb=th-c; float tl=(c-(th-bb))+(uh-bb);
  float v=oddsum(tl,ul);
  z=th+v;
  uint32_t uz=B(z)&0x7FFFFFFF;
  if(uz<=0x00800000u||uz>=0x7F800000u) return false;
  return true;
}
int main(int argc, char** argv){
  long samples = argc > 1 ? atol(argv[1]) : 20000000L;
  std::mt19937_64 g(12345);
  long n=0,fast=0,bad=0;
  for(long i=0;i<samples;i++){
    float a,b,c; uint64_t r=g();
    int mode=i%4;
    if(mode==0){a=F(uint32_t(r));b=F(uint32_t(r>>32));c=F(uint32_t(g()));}
    else {
      // structured: near-cancellation c ~ -a*b
      std::uniform_int_distribution<int> ex(-40,40);
      a=std::ldexp(float((r&0xFFFFFF)|0x800000)/16777216.0f, ex(g)) * ((r>>40)&1?-1:1);
      b=std::ldexp(float(((r>>24)&0xFFFFFF)|0x800000)/16777216.0f, ex(g));
      float p=a*b;
      uint32_t pu=B(p); int k=int(g()%64)-32;
      if(mode==1) c=-F(pu+k);
      else if(mode==2) c=std::ldexp(p, int(g()%60)-30) * ((g()&1)?-1.0f:1.0f);
      else c=-p*(1.0f+std::ldexp(1.0f,-int(g()%24)));
    }
    if(std::isnan(a)||std::isnan(b)||std::isnan(c)) continue;
    float z; n++;
    if(!fastfma(a,b,c,z)) continue;
    fast++;
    float ref=std::fma(a,b,c);
    if(B(ref)!=B(z)){ if(bad<10) printf("BAD %08x %08x %08x: %08x vs %08x\n",B(a),B(b),B(c),B(z),B(ref)); bad++; }
  }
  printf("fma_emulation: %ld samples, %ld on the fast path, %ld differ from fmaf\n",n,fast,bad);
  return bad == 0 && fast > n / 2 ? 0 : 1;
}
