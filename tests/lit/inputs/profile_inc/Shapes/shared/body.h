/* a shared header found only through -I (bullet3's Bullet3Collision/.../shared/ layout) */
typedef struct {
    float4 lin_vel;
    float inv_mass;
    int kind;
} Body;
